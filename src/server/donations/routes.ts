import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  API_PATHS,
  CreatePaymentIntentSuccessSchema,
  DonationStatsSchema,
  ProcessDonationSuccessSchema,
} from '../../shared/api';
import { ConfirmDonationRequestSchema, CreatePaymentIntentRequestSchema, DonationSubmissionSchema } from '../../shared/donation';
import { centsToDollars } from '../../shared/money';
import type { CardTestingDefence } from '../card-testing/defence';
import { minimumAmountCheck } from '../card-testing/minimum-amount';
import type { Database } from '../db/client';
import type { Clock } from '../platform/clock';
import { apiError, CARD_DATA_REFUSED_MESSAGE, INVALID_IDEMPOTENCY_KEY_MESSAGE } from '../http/errors';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../http/error-answers';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '../idempotency/idempotency-key';
import type { PaymentGateway } from '../payments/gateway';
import { confirmDonation, createDonationPaymentIntent, type IntentAnswer } from './payment-intents';
import { processDonation } from './process-donation';
import { ignoreBrowserFee, type CampaignFeeSettings } from './campaign-fee';
import { getDonationStatsCents, type DonationTotalsCents } from '../ledger/stats';

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
  /** The app's clock (DESIGN.md, "Time"): where a recurring plan's calendar starts (issue #13); the machine's by default. */
  clock?: Clock;
  /** The fee coverage offered and the known campaigns (issue #23); none by default. */
  campaignFee?: CampaignFeeSettings;
}

/** What a payment route answers: status, body, whether it replays a stored answer, and Retry-After in seconds. */
type PaymentAnswer = Pick<IntentAnswer<unknown>, 'statusCode' | 'body' | 'replayed' | 'retryAfterSeconds'>;

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
  { db, gateway, fingerprintSecret, cardTesting, minAmountCents, clock, campaignFee },
) => {
  /** Sends a payment route's answer: its status (one of those the route declares), `Idempotent-Replayed`, Retry-After. */
  const sendAnswer = (reply: FastifyReply, answer: PaymentAnswer) => {
    if (answer.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
    // NOTE: the response schema of that status checks the body.
    return reply.code(answer.statusCode as 200).send(answer.body as never);
  };

  /**
   * Runs `pay` with the request's Idempotency-Key (400 INVALID_IDEMPOTENCY_KEY_MESSAGE when malformed; issue #3),
   * counts a fresh 402 against the card-testing limits (always a decline the gateway answered; a replayed one was
   * counted already), and sends the answer.
   */
  const answerPayment = async (request: FastifyRequest, reply: FastifyReply, pay: (key: string | undefined) => Promise<PaymentAnswer>) => {
    const idempotency = readIdempotencyKey(request.headers);
    if ('invalid' in idempotency) {
      request.log.info({ statusCode: 400 }, 'Invalid Idempotency-Key header');
      return reply.code(400).send(apiError(INVALID_IDEMPOTENCY_KEY_MESSAGE));
    }
    const answer = await pay(idempotency.key);
    if (answer.statusCode === 402 && !answer.replayed) await cardTesting.recordDecline(request);
    return sendAnswer(reply, answer);
  };

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
        summary: 'Charge a card and record the donation (test gateway only)',
        body: DonationSubmissionSchema,
        response: {
          200: ProcessDonationSuccessSchema,
          ...errorAnswers(...PAGE_WRITE_ERRORS, 402, 409, 422, 503),
        },
      },
      // NOTE: in Stripe mode card data must never reach the server (PCI DSS SAQ A): refused before the body is validated.
      preValidation: gateway.acceptsCardData ? [ignoreBrowserFee] : [refuseCardData],
      preHandler: [minimumAmountCheck(minAmountCents), cardTesting.checkPayment],
    },
    async (request, reply) =>
      answerPayment(request, reply, (key) => processDonation({ db, gateway, fingerprintSecret, log: request.log, clock, campaignFee }, request.body, key)),
  );

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
        summary: "Create the payment intent the browser confirms the donor's card with",
        body: CreatePaymentIntentRequestSchema,
        response: {
          200: CreatePaymentIntentSuccessSchema,
          ...errorAnswers(...PAGE_WRITE_ERRORS, 503),
        },
      },
      preValidation: [ignoreBrowserFee],
      preHandler: [minimumAmountCheck(minAmountCents), cardTesting.checkPayment],
    },
    async (request, reply) => sendAnswer(reply, await createDonationPaymentIntent({ db, gateway, fingerprintSecret, log: request.log, campaignFee }, request.body)),
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
        summary: 'Record the donation of a payment intent the gateway says succeeded',
        body: ConfirmDonationRequestSchema,
        response: {
          200: ProcessDonationSuccessSchema,
          ...errorAnswers(...PAGE_WRITE_ERRORS, 402, 404, 409, 422, 503),
        },
      },
      preValidation: [ignoreBrowserFee],
      preHandler: [minimumAmountCheck(minAmountCents), cardTesting.checkPayment],
    },
    async (request, reply) =>
      answerPayment(request, reply, (key) => confirmDonation({ db, gateway, fingerprintSecret, log: request.log, campaignFee }, request.body, key)),
  );

  /**
   * GET /api/donations/stats: totals over succeeded donations (issue #2), amounts in dollars (summed in
   * cents in SQL, converted here), donorCount = distinct e-mail addresses, case-insensitive. byCause and
   * byFrequency list only the causes and frequencies with at least one succeeded donation, in display order.
   * Answers 200 DonationStatsSchema; 500 on a database failure.
   */
  app.get(
    API_PATHS.donationStats,
    { schema: { summary: 'Totals of succeeded donations, by cause and frequency', response: { 200: DonationStatsSchema, ...errorAnswers(500) } } },
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
