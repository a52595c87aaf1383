import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  API_PATHS,
  ApiErrorSchema,
  CreatePaymentIntentSuccessSchema,
  DonationStatsSchema,
  ProcessDonationSuccessSchema,
} from '../../shared/api';
import { ConfirmDonationRequestSchema, CreatePaymentIntentRequestSchema, DonationSubmissionSchema } from '../../shared/donation';
import { centsToDollars } from '../../shared/money';
import type { CardTestingDefence } from '../card-testing/defence';
import { minimumAmountCheck } from '../card-testing/minimum-amount';
import type { Database } from '../db/client';
import { apiError, CARD_DATA_REFUSED_MESSAGE, INVALID_IDEMPOTENCY_KEY_MESSAGE } from '../errors';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '../idempotency/idempotency-key';
import type { PaymentGateway } from '../payments/gateway';
import { confirmDonation, createDonationPaymentIntent, type IntentAnswer } from './payment-intents';
import { processDonation } from './process-donation';
import { getDonationStatsCents, type DonationTotalsCents } from './repository';

/** What the donation routes need: the database, the payment gateway, the key of the body fingerprints, the card-testing defence. */
export interface DonationRoutesOptions {
  db: Database;
  gateway: PaymentGateway;
  /** Key of the Idempotency-Key body fingerprints (see fingerprintSecret in idempotency-key.ts). */
  fingerprintSecret: Buffer;
  /** Rate limits and velocity of the payment route (see registerCardTestingDefence; issue #4). */
  cardTesting: CardTestingDefence;
  /** Smallest donation, in cents (MIN_DONATION_AMOUNT; issue #4). */
  minAmountCents: number;
}

/** 400 of process-donation in Stripe mode: the card goes to Stripe in the browser, never here (issue #11). */
const refuseCardData = async (_request: FastifyRequest, reply: FastifyReply) =>
  reply.code(400).send(apiError(CARD_DATA_REFUSED_MESSAGE, { creditCard: CARD_DATA_REFUSED_MESSAGE }));

const totalsInDollars = (totals: DonationTotalsCents) => ({
  totalRaised: centsToDollars(totals.totalCents),
  donationCount: totals.donationCount,
});

/**
 * The donation API (spec section 7; issues #2 and #3). Every route declares a zod schema for every status it
 * answers (DESIGN.md, example 9); failures are ApiErrorSchema bodies built by the app's error handler.
 */
export const donationRoutes: FastifyPluginAsyncZod<DonationRoutesOptions> = async (
  app,
  { db, gateway, fingerprintSecret, cardTesting, minAmountCents },
) => {
  /**
   * POST /api/process-donation: takes the donation submission (DonationSubmissionSchema: strict, no
   * coercion, amount in dollars) and an optional `Idempotency-Key` header (1-255 printable characters;
   * issue #3), and charges the card through the payment gateway (see processDonation for the steps).
   * Answers 200 `{success: true, data: {amount (dollars), donorName, transactionId, isTestPayment}}`;
   * 402 `{success: false, error: <gateway's decline message>}`, or the generic decline of the velocity rule;
   * 400 invalid input (with fieldErrors; an amount under MIN_DONATION_AMOUNT too) or Idempotency-Key;
   * 403 CSRF; 409 same key still in flight; 413 too large; 415 not JSON; 422 same key, different body;
   * 429 a card-testing limit (TOO_MANY_ATTEMPTS_MESSAGE; issue #4); 503 database unavailable, or payment
   * being confirmed (with Retry-After); 500 anything unexpected. A completed key's answer is replayed with
   * `Idempotent-Replayed: true`. The minimum amount and the card-testing checks run before anything is
   * claimed, written or charged. In Stripe mode (a gateway that takes no card data) every request is refused
   * with 400 CARD_DATA_REFUSED_MESSAGE before its body is validated: the form uses the payment-intent routes.
   */
  app.post(
    API_PATHS.processDonation,
    {
      schema: {
        body: DonationSubmissionSchema,
        response: {
          200: ProcessDonationSuccessSchema,
          400: ApiErrorSchema,
          402: ApiErrorSchema,
          403: ApiErrorSchema,
          409: ApiErrorSchema,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
          429: ApiErrorSchema,
          500: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
      // NOTE: in Stripe mode card data must never reach the server (PCI DSS SAQ A): refused before the body is validated.
      preValidation: gateway.acceptsCardData ? [] : [refuseCardData],
      preHandler: [minimumAmountCheck(minAmountCents), cardTesting.checkPayment],
    },
    async (request, reply) => {
      const idempotency = readIdempotencyKey(request.headers);
      if ('invalid' in idempotency) {
        request.log.info({ statusCode: 400 }, 'Invalid Idempotency-Key header');
        return reply.code(400).send(apiError(INVALID_IDEMPOTENCY_KEY_MESSAGE));
      }
      const answer = await processDonation({ db, gateway, fingerprintSecret, log: request.log }, request.body, idempotency.key);
      // NOTE: a fresh 402 is always a decline the gateway answered (processDonation); a replayed one was counted already.
      if (answer.statusCode === 402 && !answer.replayed) await cardTesting.recordDecline(request);
      if (answer.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
      // NOTE: the status is one of those declared above; the response schema of that status checks the body.
      return reply.code(answer.statusCode as 200).send(answer.body as never);
    },
  );

  /** Sends an intent endpoint's answer: status, replay header, Retry-After (the statuses are those declared). */
  const sendIntentAnswer = (reply: FastifyReply, answer: IntentAnswer<unknown>) => {
    if (answer.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
    return reply.code(answer.statusCode as 200).send(answer.body as never);
  };

  /**
   * POST /api/create-payment-intent (spec section 7; issue #11): takes `{amount (dollars), donation?}`
   * (CreatePaymentIntentRequestSchema: the amount rules of process-donation, and the rest of the submission
   * without any card field) and creates a payment intent (see createDonationPaymentIntent). Answers 200
   * `{success: true, data: {paymentIntentId, clientSecret, amount (dollars), currency: 'USD'}}`; 400 invalid
   * input (with fieldErrors) or an amount under MIN_DONATION_AMOUNT; 403 CSRF; 413; 415; 429 a card-testing
   * limit; 503 gateway or database unavailable (Retry-After); 500 anything unexpected. Nothing is charged.
   */
  app.post(
    API_PATHS.createPaymentIntent,
    {
      schema: {
        body: CreatePaymentIntentRequestSchema,
        response: {
          200: CreatePaymentIntentSuccessSchema,
          400: ApiErrorSchema,
          403: ApiErrorSchema,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          429: ApiErrorSchema,
          500: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
      preHandler: [minimumAmountCheck(minAmountCents), cardTesting.checkPayment],
    },
    async (request, reply) => sendIntentAnswer(reply, await createDonationPaymentIntent({ db, gateway, fingerprintSecret, log: request.log }, request.body)),
  );

  /**
   * POST /api/confirm-donation (spec section 7; issue #11): takes `{paymentIntentId, donationData}`
   * (ConfirmDonationRequestSchema; donationData is the submission payload, its card only in test mode) and an
   * optional Idempotency-Key, and records the donation only if the intent, retrieved from the gateway by the
   * server, succeeded with the same amount and currency (see confirmDonation). Answers as process-donation:
   * 200 `{success: true, data: {amount (dollars), donorName, transactionId, isTestPayment}}`; 402 the decline
   * message; 400 invalid input, card data in Stripe mode, an amount that differs from the intent's, or a bad
   * Idempotency-Key; 403; 404 an unknown intent; 409; 413; 415; 422 same key, other body; 429; 503 (Retry-After);
   * 500. A second confirm of the same intent replays the first answer with `Idempotent-Replayed: true`.
   */
  app.post(
    API_PATHS.confirmDonation,
    {
      schema: {
        body: ConfirmDonationRequestSchema,
        response: {
          200: ProcessDonationSuccessSchema,
          400: ApiErrorSchema,
          402: ApiErrorSchema,
          403: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
          429: ApiErrorSchema,
          500: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
      preHandler: [minimumAmountCheck(minAmountCents), cardTesting.checkPayment],
    },
    async (request, reply) => {
      const idempotency = readIdempotencyKey(request.headers);
      if ('invalid' in idempotency) return reply.code(400).send(apiError(INVALID_IDEMPOTENCY_KEY_MESSAGE));
      const answer = await confirmDonation({ db, gateway, fingerprintSecret, log: request.log }, request.body, idempotency.key);
      if (answer.statusCode === 402 && !answer.replayed) await cardTesting.recordDecline(request);
      return sendIntentAnswer(reply, answer);
    },
  );

  /**
   * GET /api/donations/stats: totals over succeeded donations (issue #2), amounts in dollars (summed in
   * cents in SQL, converted here), donorCount = distinct e-mail addresses, case-insensitive. byCause and
   * byFrequency list only the causes and frequencies with at least one succeeded donation, in display order.
   * Answers 200 DonationStatsSchema; 500 on a database failure.
   */
  app.get(
    API_PATHS.donationStats,
    { schema: { response: { 200: DonationStatsSchema, 500: ApiErrorSchema } } },
    async (_request, reply) => {
      const stats = await getDonationStatsCents(db);
      return reply.code(200).send({
        currency: 'USD',
        ...totalsInDollars(stats),
        donorCount: stats.donorCount,
        byCause: stats.byCause.map((row) => ({ cause: row.cause, ...totalsInDollars(row) })),
        byFrequency: stats.byFrequency.map((row) => ({ frequency: row.frequency, ...totalsInDollars(row) })),
      });
    },
  );
};
