import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { formatDollars } from '../../../shared/money';
import { useTranslation } from '../../i18n/use-translation';

/**
 * The manage page's form that turns fee coverage off (issue #23, section 2: "Recurring gifts keep the choice for every
 * renewal; the manage link can turn it off"), shown while the plan adds `feeDollars` to each charge: 'Stop Covering
 * the Fee' calls `onStop`.
 */
export function StopCoveringFee({ feeDollars, busy, onStop }: { feeDollars: number; busy: boolean; onStop: () => void }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onStop();
  };
  const { i18n, locale } = useTranslation();
  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={1.5} aria-labelledby="stop-covering-fee">
      <Typography component="h2" variant="h6" id="stop-covering-fee">
        {i18n._('manage.fee.heading')}
      </Typography>
      <Typography>{i18n._('manage.fee.text', { fee: formatDollars(feeDollars, locale) })}</Typography>
      <Button type="submit" variant="outlined" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
        {i18n._('manage.fee.stop')}
      </Button>
    </Stack>
  );
}
