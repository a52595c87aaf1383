import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_ERRORS, errorAnswers, MACHINE_WRITE_ERRORS } from '../http/error-answers';
import { centsToDollars, dollarsToCents, formatDollars, hasWholeCents, MAX_AMOUNT_DOLLARS } from '../../shared/money';
import type { Database } from '../db/client';
import { DONATION_STATUSES } from '../db/schema';
import { apiError, INVALID_INPUT_MESSAGE } from '../http/errors';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '../idempotency/idempotency-key';
import type { PaymentGateway } from '../payments/gateway';
import { ADMIN_DONATION_REFUND_PATH } from './paths';
import { refundDonation, type NotRefundableReason, type RefundOutcome } from './refund';

/**
 * `POST /api/admin/donations/:id/refund` (issue #14, "Staff actions"; decision 0058): an operator refunds a donation,
 * all that is left of it or `{amount}` dollars of it, through the gateway. Registered by the admin plugin, behind its
 * requireAdminToken hook. `npm run admin -- refund <donation id>` is its client.
 */

/**
 * Body of the refund, a JSON object: optional `amount`, in dollars (a JSON number with at most two decimals, as every
 * amount at the API's edge; DESIGN.md, "Money"), more than 0; without it (`{}`), all that is left is refunded.
 */
export const RefundRequestSchema = z.strictObject({
  amount: z
    .number({ error: 'The amount must be a number of dollars, e.g. 12.50' })
    .min(0.01, { error: 'The amount must be at least $0.01' })
    .max(MAX_AMOUNT_DOLLARS, { error: `The amount must be at most ${formatDollars(MAX_AMOUNT_DOLLARS)}` })
    .refine(hasWholeCents, { error: 'The amount must be in dollars with at most two decimals' })
    .optional(),
});

/** Path parameters: the donation's id (any text: one that names no donation answers 404). */
const RefundParamsSchema = z.object({ id: z.string().max(100) });

/** Answer of a refund (200): the refund (amount in dollars) and the donation after it (amount and refunded, in dollars). */
export const RefundAnswerSchema = z.object({
  refund: z.object({ id: z.uuid(), gatewayRefundId: z.string(), amount: z.number(), createdAt: z.iso.datetime() }),
  donation: z.object({ id: z.uuid(), status: z.enum(DONATION_STATUSES), amount: z.number(), refunded: z.number() }),
});
/** A refund's answer. */
export type RefundAnswer = z.infer<typeof RefundAnswerSchema>;

/** 400 without an Idempotency-Key header, or with one that is not 1-255 printable characters. */
export const REFUND_IDEMPOTENCY_KEY_MESSAGE =
  'A refund needs an Idempotency-Key header (1 to 255 printable characters), so that a repeated request refunds once.';
/** 404 of a refund of a donation that does not exist. */
export const DONATION_NOT_FOUND_MESSAGE = 'No donation has this id.';
/** 422 of an Idempotency-Key sent before with another donation or amount. */
export const REFUND_KEY_REUSED_MESSAGE = 'This Idempotency-Key was used for a refund of another donation or amount. Use a new key for a new refund.';
/**
 * 503 when the gateway's answer is unknown (timeout, network, gateway error) or the database failed: the refund is
 * pending (or was never made) and counts against what is left until it is settled (decision 0095).
 */
export const REFUND_OUTCOME_UNKNOWN_MESSAGE =
  'The outcome of the refund is unknown (the payment gateway or the database did not answer). It is kept as pending and settled with the payment gateway within a few minutes. Send the same request with the same Idempotency-Key again to see its outcome: it cannot refund twice.';
/** 503 of a retry whose refund is still pending (its outcome was unknown): the reconciler settles it within minutes (decision 0095). */
export const REFUND_BEING_SETTLED_MESSAGE =
  'This refund is still being settled with the payment gateway (its outcome was unknown). Send the same request with the same Idempotency-Key again in a few minutes to see its outcome: it cannot refund twice.';

/** 409 of a donation that cannot be refunded, by reason. */
export const NOT_REFUNDABLE_MESSAGES: Record<NotRefundableReason, string> = {
  pending: 'This donation has not been charged (it is pending): there is nothing to refund yet.',
  failed: 'This donation was declined: nothing was charged, so there is nothing to refund.',
  refunded: 'This donation has been refunded in full already.',
  disputed: 'This donation is disputed: the card issuer returns the money if the dispute is lost, so it cannot be refunded.',
  other_gateway: 'This donation was paid through another payment gateway than the one this server uses, so it cannot be refunded here.',
};

/** 400 `fieldErrors.amount` of an amount over what is left to refund. */
export function amountTooLargeMessage(remainingCents: number): string {
  return `At most ${formatDollars(centsToDollars(remainingCents))} is left to refund.`;
}

/** 409 of a refund the gateway refused (nothing refunded): its code and message, for the operator. */
export function gatewayRefusedMessage(code: string, message: string): string {
  return `The payment gateway refused the refund (${code}): ${message}`;
}

/** A UUID as PostgreSQL writes one: anything else names no donation (and would fail the uuid cast). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A refund that succeeded, as refundDonation answers it. */
type RefundedOutcome = Extract<RefundOutcome, { kind: 'refunded' }>;

/** What a refund route asks of {@link answerRefund}. */
export interface RefundAnswerPlan {
  /** The donation to refund: the route's `:id` (any text: one that is no UUID answers 404). */
  donationId: string;
  /** The amount asked for, in cents; undefined for all that is left. */
  amountCents: number | undefined;
  /** The body field an amount over what is left is reported under (`amount` in dollars, `amountCents`). */
  amountField: string;
  /** Makes the refund (refundDonation, with whatever the route records alongside it). */
  refund: (asked: { donationId: string; amountCents: number | undefined; idempotencyKey: string }) => Promise<RefundOutcome>;
  /** The status code and body of a refund made or replayed (it may log the refund first). */
  refunded: (outcome: RefundedOutcome) => { statusCode: number; body: unknown };
}

/**
 * What every refund route answers (the operator's, issue #14, and the staff's, issue #21), from the request's
 * `Idempotency-Key` header and `plan.donationId`: 400 without a valid key; 404 for an id that is no UUID or no donation;
 * 503 with Retry-After when the outcome is unknown, or the key's refund is still being settled (retry with the same
 * key: decision 0095); 409 not refundable or refused by the gateway (again for the key of a refused refund); 400 `fieldErrors[amountField]` over what is left; 422 key reused; else `plan.refunded`'s answer, with
 * `Idempotent-Replayed: true` on a replay.
 */
export async function answerRefund(request: FastifyRequest, reply: FastifyReply, plan: RefundAnswerPlan): Promise<FastifyReply> {
  const idempotency = readIdempotencyKey(request.headers);
  if ('invalid' in idempotency || idempotency.key === undefined) return reply.code(400).send(apiError(REFUND_IDEMPOTENCY_KEY_MESSAGE));
  const { donationId } = plan;
  if (!UUID_PATTERN.test(donationId)) return reply.code(404).send(apiError(DONATION_NOT_FOUND_MESSAGE));
  const { amountCents } = plan;
  let outcome: RefundOutcome;
  try {
    outcome = await plan.refund({ donationId, amountCents, idempotencyKey: idempotency.key });
  } catch (error) {
    request.log.error({ event: 'refund.unknown', err: error, donationId, amountCents }, 'Refund outcome unknown');
    return reply.code(503).header('retry-after', '30').send(apiError(REFUND_OUTCOME_UNKNOWN_MESSAGE));
  }
  switch (outcome.kind) {
    case 'not_found':
      return reply.code(404).send(apiError(DONATION_NOT_FOUND_MESSAGE));
    case 'not_refundable':
      return reply.code(409).send(apiError(NOT_REFUNDABLE_MESSAGES[outcome.reason]));
    case 'amount_too_large':
      return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { [plan.amountField]: amountTooLargeMessage(outcome.remainingCents) }));
    case 'key_reused':
      return reply.code(422).send(apiError(REFUND_KEY_REUSED_MESSAGE));
    case 'refused':
      request.log.warn({ event: 'refund.refused', donationId, code: outcome.code }, 'The gateway refused a refund');
      return reply.code(409).send(apiError(gatewayRefusedMessage(outcome.code, outcome.message)));
    case 'settling':
      return reply.code(503).header('retry-after', '60').send(apiError(REFUND_BEING_SETTLED_MESSAGE));
    case 'refunded': {
      if (outcome.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      const { statusCode, body } = plan.refunded(outcome);
      return reply.code(statusCode).send(body);
    }
  }
}

/** What the refund route needs: the database and the gateway. */
export interface RefundRouteOptions {
  db: Database;
  gateway: PaymentGateway;
}

/**
 * The refund route, for the admin plugin to register in its token-checked context.
 * POST /api/admin/donations/:id/refund, header `Idempotency-Key` (required), body `{amount?}` in dollars (`{}` for all): refunds that
 * amount, or all that is left, through the gateway (see refundDonation) and answers 200 RefundAnswerSchema; a repeat
 * with the same key answers the first refund again (`Idempotent-Replayed: true`) and refunds nothing more. 400 no or
 * bad key, bad body, or an amount over what is left (`fieldErrors.amount`); 401 no or wrong token; 404 ADMIN_TOKEN
 * unset or no such donation; 409 not refundable (pending, failed, refunded, disputed, another gateway's) or refused by
 * the gateway; 413 body too large; 415 not JSON; 422 key reused for another donation or amount; 500; 503 outcome
 * unknown, or the key's refund still being settled (retry with the same key; decision 0095).
 */
export const refundRoute: FastifyPluginAsyncZod<RefundRouteOptions> = async (app, { db, gateway }) => {
  app.post(
    ADMIN_DONATION_REFUND_PATH,
    {
      config: { auditBodyFields: ['amount'] },
      schema: {
        summary: 'Refund a donation, all that is left of it or part, through the payment gateway',
        params: RefundParamsSchema,
        body: RefundRequestSchema,
        response: {
          200: RefundAnswerSchema,
          ...errorAnswers(...ADMIN_ERRORS, ...MACHINE_WRITE_ERRORS, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const { amount } = request.body;
      return answerRefund(request, reply, {
        donationId: request.params.id,
        amountCents: amount === undefined ? undefined : dollarsToCents(amount),
        amountField: 'amount',
        refund: (asked) => refundDonation({ db, gateway }, asked),
        refunded: ({ refund, donation, replayed }) => {
          request.log.info(
            { event: 'refund.made', donationId: donation.id, refundId: refund.id, gatewayRefundId: refund.gatewayRefundId, amountCents: refund.amountCents, status: donation.status, replayed },
            replayed ? 'Refund replayed' : 'Refund made',
          );
          return {
            statusCode: 200,
            body: {
              refund: { id: refund.id, gatewayRefundId: refund.gatewayRefundId, amount: centsToDollars(refund.amountCents), createdAt: refund.createdAt.toISOString() },
              donation: { id: donation.id, status: donation.status, amount: centsToDollars(donation.amountCents), refunded: centsToDollars(donation.refundedCents) },
            } satisfies RefundAnswer,
          };
        },
      });
    },
  );
};
