import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { API_PATHS } from '../../../shared/api';
import type { SupporterChoice } from '../../../shared/campaign-supporters';
import { apiFetch } from '../../api/api-client';
import { useTranslation } from '../../i18n/use-translation';

/** The receipt token of a receipt link `/api/receipts/pdf/<token>` (its last segment). */
const tokenOf = (receiptUrl: string) => receiptUrl.slice(receiptUrl.lastIndexOf('/') + 1);

/** The choice's URL for a receipt link. */
const choiceUrl = (receiptUrl: string) => API_PATHS.campaignSupporter.replace(':token', encodeURIComponent(tokenOf(receiptUrl)));

/**
 * "Show my name on the campaign page" on the thank-you page of a campaign gift (issue #34, "Supporters' list"; decision
 * 0103): both boxes unticked until the donor ticks; the message's box only when the gift had a message. The gift's
 * receipt link proves it is the donor's; the server answers 204 (nothing shown) when the gift cannot be listed
 * (anonymous, no campaign, or a campaign whose list is off). Each change is saved at once (an idempotent PUT) and said
 * in a status line.
 */
export function SupporterChoiceBoxes({ receiptUrl }: { receiptUrl: string }) {
  const { i18n } = useTranslation();
  const [choice, setChoice] = useState<SupporterChoice | null>(null);
  const [status, setStatus] = useState('');

  useEffect(() => {
    let live = true;
    apiFetch(choiceUrl(receiptUrl))
      .then(async (response) => {
        if (live && response.status === 200) setChoice((await response.json()) as SupporterChoice);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [receiptUrl]);

  if (!choice) return null;

  const save = (next: { showName: boolean; showMessage: boolean }) => {
    setChoice({ ...choice, ...next });
    setStatus('');
    apiFetch(choiceUrl(receiptUrl), { method: 'PUT', json: next })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        setChoice((await response.json()) as SupporterChoice);
        setStatus(i18n._('thankYou.supporters.saved'));
      })
      .catch(() => {
        setChoice(choice);
        setStatus(i18n._('thankYou.supporters.failed'));
      });
  };

  return (
    <Box component="section" aria-labelledby="supporters-choice-heading">
      <Typography variant="h2" id="supporters-choice-heading" sx={{ mb: 1 }}>
        {i18n._('thankYou.supporters.heading')}
      </Typography>
      <FormGroup>
        <FormControlLabel
          control={<Checkbox checked={choice.showName} onChange={(event) => save({ showName: event.target.checked, showMessage: event.target.checked && choice.showMessage })} />}
          label={i18n._('thankYou.supporters.showName')}
        />
        {choice.hasMessage && (
          <FormControlLabel
            control={
              <Checkbox
                checked={choice.showMessage}
                disabled={!choice.showName}
                onChange={(event) => save({ showName: choice.showName, showMessage: event.target.checked })}
              />
            }
            label={i18n._('thankYou.supporters.showMessage')}
          />
        )}
      </FormGroup>
      <Typography role="status" color="text.secondary">
        {status}
      </Typography>
    </Box>
  );
}
