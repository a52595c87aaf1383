import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { Controller, useFormContext } from 'react-hook-form';
import type { DonationFormValues } from '../../../shared/donation';
import { useTranslation } from '../../i18n/use-translation';

/**
 * The 'Make my donation anonymous' checkbox (spec section 2; issue #2: anonymity hides the name
 * from anything public, while the donor's own thank-you page and receipt still use it).
 */
export function AnonymousCheckbox() {
  const { control } = useFormContext<DonationFormValues>();
  const { i18n } = useTranslation();
  return (
    <Controller
      name="isAnonymous"
      control={control}
      render={({ field }) => (
        <div>
          <FormControlLabel
            label={i18n._('form.anonymous')}
            control={
              <Checkbox
                name={field.name}
                checked={field.value}
                onChange={(event) => field.onChange(event.target.checked)}
                onBlur={field.onBlur}
                slotProps={{ input: { id: 'donation-isAnonymous', 'aria-describedby': 'donation-isAnonymous-help' } }}
              />
            }
          />
          <Typography id="donation-isAnonymous-help" variant="body2" color="text.secondary" sx={{ ml: 4 }}>
            {i18n._('form.anonymousHelp')}
          </Typography>
        </div>
      )}
    />
  );
}
