import Stack from '@mui/material/Stack';
import type { FormEvent, KeyboardEvent, ReactNode } from 'react';
import { type FieldValues, FormProvider, type UseFormReturn } from 'react-hook-form';
import { MAX_LENGTHS } from '../../../shared/field-rules';
import { ErrorSnackbar } from '../../components/error-snackbar';
import { AnonymousCheckbox } from './anonymous-checkbox';
import { FormSection } from './form-section';
import { FormTextField } from './form-text-field';
import { SecurePaymentNotice } from './secure-payment-notice';
import { SubmitDonationButton } from './submit-donation-button';
import { TributeSection } from './tribute-section';
import type { SnackbarError } from './use-error-snackbar';

/** Makes a field of a {@link FormSection} span its row. */
export const FULL_ROW = { gridColumn: '1 / -1' } as const;

/** Props of {@link DonationFormLayout}. */
export interface DonationFormLayoutProps<TValues extends FieldValues> {
  form: UseFormReturn<TValues>;
  amountDollars: number;
  /** The Payment Information section's fields: the spec's card fields (test mode) or Stripe's Payment Element. */
  payment: ReactNode;
  /** False while something outside the form's own fields is not ready (Stripe's card fields incomplete). */
  paymentReady: boolean;
  loading: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLFormElement>) => void;
  error: SnackbarError | null;
  dismissError: (key: number) => void;
}

/**
 * The donation form as the donor sees it in both payment modes (spec section 2; labels and choices from issue
 * #2): Personal Information, Billing Address (Optional), Payment Information (`payment`, then the notice that
 * payment information is encrypted and secure), the optional message, the anonymity checkbox, the "Dedicate this gift"
 * section (issue #23) and the submit
 * button, which is disabled while the form is invalid or loading; and the error snackbar (spec section 8).
 */
export function DonationFormLayout<TValues extends FieldValues>({
  form,
  amountDollars,
  payment,
  paymentReady,
  loading,
  onSubmit,
  onKeyDown,
  error,
  dismissError,
}: DonationFormLayoutProps<TValues>) {
  return (
    <FormProvider {...form}>
      <form noValidate onSubmit={onSubmit} onKeyDown={onKeyDown} aria-label="Donation form">
        <Stack spacing={4}>
          <FormSection title="Personal Information">
            <FormTextField name="donorName" label="Full Name" autoComplete="name" required sx={FULL_ROW}
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.name } }} />
            <FormTextField name="donorEmail" label="Email Address" autoComplete="email" type="email" required
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.email } }} />
            <FormTextField name="donorPhone" label="Phone Number" autoComplete="tel" type="tel"
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.phone } }} />
          </FormSection>

          <FormSection title="Billing Address (Optional)">
            <FormTextField name="street" label="Street Address" autoComplete="street-address" sx={FULL_ROW}
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.street } }} />
            <FormTextField name="city" label="City" autoComplete="address-level2"
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.city } }} />
            <FormTextField name="state" label="State / Province" autoComplete="address-level1"
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.state } }} />
            <FormTextField name="zipCode" label="ZIP / Postal Code" autoComplete="postal-code"
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.zipCode } }} />
            <FormTextField name="country" label="Country" autoComplete="country-name"
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.country } }} />
          </FormSection>

          <FormSection title="Payment Information">
            {payment}
            <Stack sx={FULL_ROW}>
              <SecurePaymentNotice />
            </Stack>
          </FormSection>

          <FormTextField name="message" label="Message (Optional)" multiline minRows={3}
            slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.message } }} />
          <AnonymousCheckbox />
          <TributeSection />

          <SubmitDonationButton amountDollars={amountDollars} loading={loading} formValid={form.formState.isValid && paymentReady} />
        </Stack>
      </form>
      {error && <ErrorSnackbar key={error.key} message={error.message} onClose={() => dismissError(error.key)} />}
    </FormProvider>
  );
}
