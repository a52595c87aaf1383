import { type KeyboardEvent, useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { DONATION_FAILED_FALLBACK } from '../../../shared/api';
import type { DonationResult } from '../../../shared/donation';
import { createDonationAttempt } from '../../api/donation-attempt';
import { DonationRequestError } from '../../api/donation-request';
import { PATHS } from '../../../shared/site-paths';
import { useDonationStore } from '../../state/use-donation-store';
import { apiErrorMessage } from '../../api/api-error-message';
import { useLocalizedPath, useTranslation } from '../../i18n/use-translation';
import { toFormFieldErrors } from './form-field-errors';
import { useErrorSnackbar } from './use-error-snackbar';
import type { I18n } from '@lingui/core';

/**
 * Pays a validated form: returns the donation result, or undefined when it stopped on errors already shown
 * where they belong (Stripe's own card fields). `started` is what `start` returned when the donor pressed the
 * button; `keyFor(payload)` is the Idempotency-Key of the final call's payload (issue #3: kept while it is retried).
 */
export type PayDonation<TValues, TStarted> = (
  values: TValues,
  started: TStarted,
  keyFor: (payload: unknown) => string,
) => Promise<DonationResult | undefined>;

/** What {@link useDonationSubmit} needs: the form, its empty values, how to pay and what to start at the press. */
export interface DonationSubmitOptions<TValues extends FieldValues, TStarted> {
  form: UseFormReturn<TValues>;
  emptyValues: TValues;
  pay: PayDonation<TValues, TStarted>;
  /**
   * Runs as soon as the donor submits, before the form is validated (Stripe: `elements.submit()`, "as soon as
   * your customer presses pay, prior to any asynchronous work"). An invalid form waits for it before focusing its
   * first error, so the form's own field wins the focus.
   */
  start: () => TStarted;
}

/**
 * The snackbar's text for what a payment threw (spec section 8; issue #24): an API failure in the page's language
 * (apiErrorMessage); the page's own or Stripe's messages (already in the page's language) as they are; a network
 * failure (fetch's TypeError) or a message-less error as the server's would be: its English text on English pages,
 * `error.generic` on others.
 */
function snackbarMessage(i18n: I18n, caught: unknown): string {
  if (caught instanceof DonationRequestError) return apiErrorMessage(i18n, { message: caught.message, code: caught.code });
  if (caught instanceof Error && caught.message && !(caught instanceof TypeError)) return caught.message;
  return apiErrorMessage(i18n, { message: caught instanceof Error && caught.message ? caught.message : DONATION_FAILED_FALLBACK });
}

/** True for the inputs in which Enter submits a form (not buttons, text areas or the select's combobox). */
function isImplicitSubmitTarget(target: EventTarget): boolean {
  return target instanceof HTMLInputElement && !['button', 'submit', 'reset', 'image'].includes(target.type);
}

/**
 * The donation form's submit behaviour, the same in test mode and Stripe mode (spec sections 4 and 8): a valid
 * submit sets `loading` and pays; success stores the result, resets the form and opens the thank-you page;
 * failure stays on the form with the error snackbar 'Error: {message}', and a 400 answer's `fieldErrors` show on
 * the fields they name (issue #2), the first focused. An invalid submit shows every error and sends nothing.
 * Returns the `onSubmit` and `onKeyDown` handlers of the `<form>`, `loading` and the snackbar's state.
 */
export function useDonationSubmit<TValues extends FieldValues, TStarted>({ form, emptyValues, pay, start }: DonationSubmitOptions<TValues, TStarted>) {
  const { setResult } = useDonationStore();
  const navigate = useNavigate();
  const { i18n } = useTranslation();
  const to = useLocalizedPath();
  const [loading, setLoading] = useState(false);
  const [attempt] = useState(createDonationAttempt);
  const { error, showError, dismissError } = useErrorSnackbar();

  const send = async (values: TValues, started: TStarted) => {
    setLoading(true);
    try {
      const result = await pay(values, started, (payload) => attempt.keyFor(payload));
      if (!result) return;
      attempt.finish();
      setResult(result);
      form.reset(emptyValues);
      void navigate(to(PATHS.thankYou));
    } catch (caught) {
      if (caught instanceof DonationRequestError) {
        if (!caught.retryable) attempt.finish();
        // The server's messages on the fields it names (issue #2), the first of them focused as a refused submit does.
        toFormFieldErrors(caught.fieldErrors).forEach(({ name, message }, index) =>
          form.setError(name as Path<TValues>, { type: 'server', message }, { shouldFocus: index === 0 }),
        );
      }
      showError(snackbarMessage(i18n, caught));
    } finally {
      setLoading(false);
    }
  };

  const onSubmit = (event?: { preventDefault: () => void }) => {
    event?.preventDefault();
    if (loading) return;
    const started = start();
    void form.handleSubmit(
      (values) => send(values, started),
      async () => {
        await started;
      },
    )();
  };

  // NOTE: the submit button is disabled while the form is invalid, and browsers skip implicit
  // submission (Enter in a field) when the form's submit button is disabled. Enter is handled
  // here so that it still submits, and an invalid submit still shows every error (spec section 4).
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing && isImplicitSubmitTarget(event.target)) onSubmit(event);
  };

  return { loading, onSubmit, onKeyDown, error, dismissError };
}
