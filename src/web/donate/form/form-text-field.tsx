import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { ChangeEvent, ReactNode } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import type { DonationFormValues } from '../../../shared/donation';
import { useValidationMessage } from '../../components/use-validation-message';
import { caretAfterDigits, countDigitsBefore } from './digit-caret';
import type { TributeFormValues } from '../../../shared/tribute';

/** The donation form's text fields (all of them but the anonymity checkbox). */
export type TextFieldName =
  | Exclude<keyof DonationFormValues, 'isAnonymous' | 'tribute'>
  | `tribute.${Exclude<keyof TributeFormValues, 'enabled' | 'type' | 'notify'>}`;

/** Props of {@link FormTextField}: MUI TextField's, plus the form field it edits. */
export interface FormTextFieldProps
  extends Omit<TextFieldProps, 'name' | 'id' | 'value' | 'onChange' | 'onBlur' | 'error' | 'helperText' | 'inputRef'> {
  name: TextFieldName;
  /** The visible label, which is also the input's accessible name (issue #2). */
  label: string;
  /**
   * Rewrites what the donor types (card number grouping, CVV digits only). Meant for digit
   * fields: the caret stays after the same number of digits.
   */
  format?: (text: string) => string;
  /** Helper text from the current value, shown when there is no error message. */
  hint?: (value: string) => ReactNode;
}

/**
 * Writes `format(input.value)` into the input itself, keeping the caret beside the same digit,
 * and returns it. React then finds the DOM already holding the new value and leaves the caret be.
 */
function reformatInPlace(input: HTMLInputElement | HTMLTextAreaElement, format: (text: string) => string): string {
  const raw = input.value;
  const formatted = format(raw);
  if (formatted === raw) return formatted;
  const caret = input.selectionStart ?? raw.length;
  const position = caret >= raw.length ? formatted.length : caretAfterDigits(formatted, countDigitsBefore(raw, caret));
  input.value = formatted;
  if (document.activeElement === input) input.setSelectionRange(position, position);
  return formatted;
}

/**
 * A donation form text field bound to react-hook-form (issue #2: labels, autocomplete tokens).
 * Its error message (DonationFormSchema, spec section 5) shows as helper text once the field has
 * been left (mode 'onTouched') or after a submit; the input's id is `donation-{name}`.
 */
export function FormTextField({ name, format, hint, ...props }: FormTextFieldProps) {
  const { control } = useFormContext<DonationFormValues>();
  const localized = useValidationMessage();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => {
        const handleChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
          field.onChange(format ? reformatInPlace(event.target, format) : event.target.value);
        };
        const message = localized(fieldState.error?.message);
        return (
          <TextField
            fullWidth
            {...props}
            id={`donation-${name}`}
            name={field.name}
            value={field.value}
            onChange={handleChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={message !== undefined}
            helperText={message ?? hint?.(field.value)}
          />
        );
      }}
    />
  );
}
