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
import { useTranslation } from '../../i18n/use-translation';

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
  const { i18n } = useTranslation();
  return (
    <FormProvider {...form}>
      <form noValidate onSubmit={onSubmit} onKeyDown={onKeyDown} aria-label={i18n._('form.ariaLabel')}>
        <Stack spacing={4}>
          <FormSection title={i18n._('form.personalInformation')}>
            <FormTextField name="donorName" label={i18n._('form.fullName')} autoComplete="name" required sx={FULL_ROW}
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.name } }} />
            <FormTextField name="donorEmail" label={i18n._('form.emailAddress')} autoComplete="email" type="email" required
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.email } }} />
            <FormTextField name="donorPhone" label={i18n._('form.phoneNumber')} autoComplete="tel" type="tel"
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.phone } }} />
          </FormSection>

          <FormSection title={i18n._('form.billingAddress')}>
            <FormTextField name="street" label={i18n._('form.streetAddress')} autoComplete="street-address" sx={FULL_ROW}
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.street } }} />
            <FormTextField name="city" label={i18n._('form.city')} autoComplete="address-level2"
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.city } }} />
            <FormTextField name="state" label={i18n._('form.state')} autoComplete="address-level1"
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.state } }} />
            <FormTextField name="zipCode" label={i18n._('form.zipCode')} autoComplete="postal-code"
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.zipCode } }} />
            <FormTextField name="country" label={i18n._('form.country')} autoComplete="country-name"
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.country } }} />
          </FormSection>

          <FormSection title={i18n._('form.paymentInformation')}>
            {payment}
            <Stack sx={FULL_ROW}>
              <SecurePaymentNotice />
            </Stack>
          </FormSection>

          <FormTextField name="message" label={i18n._('form.message')} multiline minRows={3}
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
