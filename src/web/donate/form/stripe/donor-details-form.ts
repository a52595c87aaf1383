import { z } from 'zod';
import { DonationFormSchema, type DonationSelection, EMPTY_DONATION_FORM, toDonationSubmission } from '../../../../shared/donation';
import type { CardlessSubmission } from '../../../api/payment-intents';

/** The donation form's card fields, which Stripe's Payment Element replaces in Stripe mode (issue #11). */
const CARD_FIELDS = { cardNumber: true, cardholderName: true, expiryMonth: true, expiryYear: true, cvv: true } as const;

/**
 * The donation form's values in Stripe mode: DonationFormSchema's fields and rules without the card fields
 * (the expiry check goes with them). NOTE: built from the schema's shape, as zod refuses `.omit` on a refined
 * object; the same rules, messages and order as test mode.
 */
export const DonorDetailsFormSchema = z.object(DonationFormSchema.shape).omit(CARD_FIELDS);
/** Validated values of the Stripe-mode donation form. */
export type DonorDetailsFormValues = z.infer<typeof DonorDetailsFormSchema>;

/** The Stripe-mode form's values before anything is typed: the test-mode form's without the card fields. */
export const EMPTY_DONOR_DETAILS_FORM = Object.fromEntries(
  Object.entries(EMPTY_DONATION_FORM).filter(([name]) => !(name in CARD_FIELDS)),
) as DonorDetailsFormValues;

/**
 * The submission payload without its card (spec section 3; issue #11: what confirm-donation gets in Stripe mode),
 * built by the same toDonationSubmission as test mode's payload, with the same `extras` (issue #23).
 */
export function toCardlessSubmission(
  selection: DonationSelection,
  values: DonorDetailsFormValues,
  extras?: Parameters<typeof toDonationSubmission>[2],
): CardlessSubmission {
  const { creditCard: _none, ...submission } = toDonationSubmission(selection, { ...EMPTY_DONATION_FORM, ...values }, extras);
  return submission;
}
