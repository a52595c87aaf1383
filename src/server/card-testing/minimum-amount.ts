import type { FastifyReply, FastifyRequest } from 'fastify';
import { amountError } from '../../shared/amounts';
import type { DonationSubmission } from '../../shared/donation';
import { centsToDollars, dollarsToCents } from '../../shared/money';
import { apiError, INVALID_INPUT_MESSAGE } from '../errors';
import { CARD_TESTING_EVENTS } from './events';

/**
 * A preHandler of the payment route, after schema validation (which already holds the spec's $1 floor):
 * refuses an amount under `minAmountCents` (MIN_DONATION_AMOUNT; issue #4: card testers probe with the
 * smallest charge a form takes) with 400 `{error: INVALID_INPUT_MESSAGE, fieldErrors: {amount}}`, the
 * message the page's custom amount field shows for the same rule (shared amountError), and logs
 * `amount.below_minimum`. Applies whether or not RATE_LIMITS is on: it is a rule of the form, not a limit.
 */
export function minimumAmountCheck(minAmountCents: number) {
  const minDollars = centsToDollars(minAmountCents);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    // NOTE: runs after validation, so the body is a DonationSubmission.
    const { amount } = request.body as DonationSubmission;
    const message = amountError(amount, minDollars);
    if (message === undefined) return undefined;
    request.log.info(
      { event: CARD_TESTING_EVENTS.amountBelowMinimum, amountCents: dollarsToCents(amount), minAmountCents },
      'Donation amount under the minimum',
    );
    return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { amount: message }));
  };
}
