import type { FastifyReply, FastifyRequest } from 'fastify';
import { amountError } from '../../shared/amounts';
import type { DonationSubmission } from '../../shared/donation';
import { centsToDollars, dollarsToCents } from '../../shared/money';
import { apiError, INVALID_INPUT_MESSAGE } from '../http/errors';
import { CARD_TESTING_EVENTS } from './events';

/**
 * A preHandler of the payment routes (process-donation, create-payment-intent, confirm-donation), after schema validation (which already holds the spec's $1 floor):
 * refuses an amount under `minAmountCents` (MIN_DONATION_AMOUNT; issue #4: card testers probe with the
 * smallest charge a form takes) with 400 `{error: INVALID_INPUT_MESSAGE, fieldErrors: {amount}}` (`donationData.amount`
 * on confirm-donation), the
 * message the page's custom amount field shows for the same rule (shared amountError), and logs
 * `amount.below_minimum`. Applies whether or not RATE_LIMITS is on: it is a rule of the form, not a limit.
 */
export function minimumAmountCheck(minAmountCents: number) {
  const minDollars = centsToDollars(minAmountCents);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    // NOTE: runs after validation: a body with `amount` (process-donation, create-payment-intent) or `donationData` (confirm-donation).
    const body = request.body as Pick<DonationSubmission, 'amount'> | { donationData: Pick<DonationSubmission, 'amount'> };
    const [amount, field] = 'donationData' in body ? [body.donationData.amount, 'donationData.amount'] : [body.amount, 'amount'];
    const message = amountError(amount, minDollars);
    if (message === undefined) return undefined;
    request.log.info(
      { event: CARD_TESTING_EVENTS.amountBelowMinimum, amountCents: dollarsToCents(amount), minAmountCents },
      'Donation amount under the minimum',
    );
    return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { [field]: message }));
  };
}
