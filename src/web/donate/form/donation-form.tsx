import { zodResolver } from '@hookform/resolvers/zod';
import Stack from '@mui/material/Stack';
import { type KeyboardEvent, useMemo, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { DONATION_FAILED_FALLBACK } from '../../../shared/api';
import { EXPIRY_MONTH_OPTIONS, expiryYearOptions } from '../../../shared/card';
import {
  type DonationFormValues,
  DonationFormSchema,
  type DonationSelection,
  EMPTY_DONATION_FORM,
  toDonationSubmission,
} from '../../../shared/donation';
import { MAX_LENGTHS } from '../../../shared/field-rules';
import { createDonationAttempt } from '../../api/donation-attempt';
import { DonationRequestError, processDonation } from '../../api/process-donation';
import { ErrorSnackbar } from '../../components/error-snackbar';
import { PATHS } from '../../paths';
import { useDonationStore } from '../../state/use-donation-store';
import { AnonymousCheckbox } from './anonymous-checkbox';
import { CardNumberField } from './card-number-field';
import { CvvField } from './cvv-field';
import { ExpirySelectField } from './expiry-select-field';
import { toFormFieldErrors } from './form-field-errors';
import { FormSection } from './form-section';
import { FormTextField } from './form-text-field';
import { SecurePaymentNotice } from './secure-payment-notice';
import { SubmitDonationButton } from './submit-donation-button';
import { useErrorSnackbar } from './use-error-snackbar';

const FULL_ROW = { gridColumn: '1 / -1' } as const;

/** True for the inputs in which Enter submits a form (not buttons, text areas or the select's combobox). */
function isImplicitSubmitTarget(target: EventTarget): boolean {
  return target instanceof HTMLInputElement && !['button', 'submit', 'reset', 'image'].includes(target.type);
}

/**
 * The donation form (spec sections 2, 4 and 5; labels and choices from issue #2), validated with
 * the shared DonationFormSchema. A valid submit sends `toDonationSubmission(selection, values)` to
 * process-donation; success stores the result, resets the form and opens the thank-you page;
 * failure stays here with the error snackbar, and a 400 answer's `fieldErrors` show on the fields they
 * name (issue #2). An invalid submit shows every error, sends nothing.
 */
export function DonationForm({ selection }: { selection: DonationSelection }) {
  const { setResult } = useDonationStore();
  const navigate = useNavigate();
  const form = useForm({
    resolver: zodResolver(DonationFormSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_DONATION_FORM,
  });
  const { formState, getValues, handleSubmit, reset, setError, trigger } = form;
  const [loading, setLoading] = useState(false);
  const [attempt] = useState(createDonationAttempt);
  const { error, showError, dismissError } = useErrorSnackbar();
  const yearOptions = useMemo(() => expiryYearOptions(), []);

  const send = async (values: DonationFormValues) => {
    setLoading(true);
    try {
      const submission = toDonationSubmission(selection, values);
      const result = await processDonation(submission, attempt.keyFor(submission));
      attempt.finish();
      setResult(result);
      reset(EMPTY_DONATION_FORM);
      void navigate(PATHS.thankYou);
    } catch (caught) {
      if (caught instanceof DonationRequestError) {
        if (!caught.retryable) attempt.finish();
        // The server's messages on the fields it names (issue #2), the first of them focused as a refused submit does.
        toFormFieldErrors(caught.fieldErrors).forEach(({ name, message }, index) =>
          setError(name, { type: 'server', message }, { shouldFocus: index === 0 }),
        );
      }
      showError(caught instanceof Error && caught.message ? caught.message : DONATION_FAILED_FALLBACK);
    } finally {
      setLoading(false);
    }
  };
  const submit = (event?: { preventDefault: () => void }) => {
    event?.preventDefault();
    if (loading) return;
    void handleSubmit(send)();
  };

  // NOTE: the submit button is disabled while the form is invalid, and browsers skip implicit
  // submission (Enter in a field) when the form's submit button is disabled. Enter is handled
  // here so that it still submits, and an invalid submit still shows every error (spec section 4).
  const submitOnEnter = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing && isImplicitSubmitTarget(event.target)) submit(event);
  };

  // 'Card has expired' sits on the month; re-check it when the year changes once a month is chosen.
  const recheckMonth = () => {
    if (getValues('expiryMonth') !== '') void trigger('expiryMonth');
  };

  return (
    <FormProvider {...form}>
      <form noValidate onSubmit={submit} onKeyDown={submitOnEnter} aria-label="Donation form">
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
            <Stack sx={FULL_ROW}>
              <CardNumberField />
            </Stack>
            <FormTextField name="cardholderName" label="Cardholder Name" autoComplete="cc-name" required sx={FULL_ROW}
              slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.name } }} />
            <ExpirySelectField name="expiryMonth" label="Expiry Month" autoComplete="cc-exp-month"
              options={EXPIRY_MONTH_OPTIONS} />
            <ExpirySelectField name="expiryYear" label="Expiry Year" autoComplete="cc-exp-year"
              options={yearOptions} onPicked={recheckMonth} />
            <CvvField />
            <Stack sx={FULL_ROW}>
              <SecurePaymentNotice />
            </Stack>
          </FormSection>

          <FormTextField name="message" label="Message (Optional)" multiline minRows={3}
            slotProps={{ htmlInput: { maxLength: MAX_LENGTHS.message } }} />
          <AnonymousCheckbox />

          <SubmitDonationButton amountDollars={selection.amount} loading={loading} formValid={formState.isValid} />
        </Stack>
      </form>
      {error && <ErrorSnackbar key={error.key} message={error.message} onClose={() => dismissError(error.key)} />}
    </FormProvider>
  );
}
