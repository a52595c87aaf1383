import type { CreatePaymentIntentRequest } from '../../../../shared/donation';
import { createDonationAttempt } from '../../../api/donation-attempt';
import type { CreatedPaymentIntent } from '../../../api/payment-intents';

/** Creates a payment intent for `request`, sent with `idempotencyKey` (the web API's createPaymentIntent). */
export type CreateIntent = (request: CreatePaymentIntentRequest, idempotencyKey: string) => Promise<CreatedPaymentIntent>;

/** The payment intent of the donor's current attempt, and whether Stripe.js has paid it. */
export interface CurrentIntent {
  intent: CreatedPaymentIntent;
  paid: boolean;
}

/**
 * The payment intent one Stripe-mode form pays with, kept across the donor's tries (issue #11), so that a
 * retry never creates a second charge and a declined card is retried on the same intent:
 * - once paid, the intent is the one every later try confirms, whatever the donor changed meanwhile;
 * - before that, it is kept while the create-payment-intent request is the same (a declined card, then
 *   another one), and replaced when the request changes (the intent's pending donation holds the details).
 */
export interface PaymentIntentAttempt {
  /** The current intent for `request`, or a new one from `create` (see above). */
  intentFor(request: CreatePaymentIntentRequest): Promise<CurrentIntent>;
  /** Stripe.js confirmed the intent: from now on the attempt only confirms the donation. */
  markPaid(): void;
  /** The intent needs a card again (declined after all): the next try confirms it with Stripe.js again. */
  markUnpaid(): void;
  /** The intent cannot be paid any more (or was recorded): the next try creates a new one. */
  abandon(): void;
}

/** Creates the {@link PaymentIntentAttempt} of one form, creating intents with `create`. */
export function createPaymentIntentAttempt(create: CreateIntent): PaymentIntentAttempt {
  const keys = createDonationAttempt();
  let current: (CurrentIntent & { key: string }) | null = null;
  return {
    async intentFor(request) {
      if (current?.paid) return current;
      const key = keys.keyFor(request);
      if (current?.key !== key) current = { key, intent: await create(request, key), paid: false };
      return current;
    },
    markPaid() {
      if (current) current.paid = true;
    },
    markUnpaid() {
      if (current) current.paid = false;
    },
    abandon() {
      current = null;
      keys.finish();
    },
  };
}
