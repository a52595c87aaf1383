import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { Controller, useFormContext } from 'react-hook-form';
import type { ExpiryOption } from '../../../shared/card';
import type { DonationFormValues } from '../../../shared/donation';
import { useValidationMessage } from '../../components/use-validation-message';

/** Props of {@link ExpirySelectField}. */
export interface ExpirySelectFieldProps {
  name: 'expiryMonth' | 'expiryYear';
  /** 'Expiry Month' or 'Expiry Year' (issue #2): the combobox's accessible name. */
  label: string;
  /** `cc-exp-month` or `cc-exp-year`. */
  autoComplete: string;
  options: readonly ExpiryOption[];
  /** Called after the donor picks a value (e.g. to re-check the other half of the date). */
  onPicked?: () => void;
}

/**
 * An expiry select of the donation form (spec section 3: '01 - January'..., 21 years). Closing
 * its menu counts as leaving the field, so 'Month is required' / 'Year is required' show once it
 * has been opened and left without a choice (issue #2). 'Card has expired' shows on the month.
 */
export function ExpirySelectField({ name, label, autoComplete, options, onPicked }: ExpirySelectFieldProps) {
  const { control } = useFormContext<DonationFormValues>();
  const localized = useValidationMessage();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          select
          fullWidth
          required
          id={`donation-${name}`}
          label={label}
          name={field.name}
          value={field.value}
          onChange={(event) => {
            field.onChange(event.target.value);
            onPicked?.();
          }}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={fieldState.error !== undefined}
          helperText={localized(fieldState.error?.message)}
          slotProps={{
            htmlInput: { autoComplete },
            select: {
              onClose: () => field.onBlur(),
              MenuProps: { slotProps: { paper: { sx: { maxHeight: 320 } } } },
            },
          }}
        >
          {options.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
