import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PATHS, ApiErrorSchema, DonationStatsSchema, ProcessDonationSuccessSchema } from '../../shared/api';
import { cardLast4, detectCardBrand } from '../../shared/card';
import { CAUSE_DETAILS } from '../../shared/causes';
import { DonationSubmissionSchema } from '../../shared/donation';
import { centsToDollars, CURRENCY, dollarsToCents } from '../../shared/money';
import type { Database } from '../db/client';
import type { PaymentGateway } from '../payments/gateway';
import {
  createPendingDonation,
  getDonationStatsCents,
  markDonationFailed,
  markDonationSucceeded,
  type DonationTotalsCents,
} from './repository';

/** What the donation routes need: the database and the payment gateway. */
export interface DonationRoutesOptions {
  db: Database;
  gateway: PaymentGateway;
}

/** An optional text field as stored: trimmed by the schema, and NULL rather than '' when left empty. */
const orNull = (value: string | undefined): string | null => (value ? value : null);

const totalsInDollars = (totals: DonationTotalsCents) => ({
  totalRaised: centsToDollars(totals.totalCents),
  donationCount: totals.donationCount,
});

/**
 * The donation API (spec section 7; issue #2). Every route declares a zod schema for every status it
 * answers (DESIGN.md, example 9); failures are ApiErrorSchema bodies built by the app's error handler.
 */
export const donationRoutes: FastifyPluginAsyncZod<DonationRoutesOptions> = async (app, { db, gateway }) => {
  /**
   * POST /api/process-donation: takes the donation submission (DonationSubmissionSchema: strict, no
   * coercion, amount in dollars) and charges it through the payment gateway.
   * 1. writes the donation `pending` (amount in cents, brand and last4 only: never the PAN or CVV);
   * 2. charges the card (idempotency key: the donation id);
   * 3. moves the row to `succeeded` or `failed` (pending → succeeded | failed only).
   * Answers 200 `{success: true, data: {amount (dollars), donorName, transactionId, isTestPayment}}`;
   * 402 `{success: false, error: <gateway's decline message>}`; 400 invalid input (with fieldErrors);
   * 403 CSRF; 413 too large; 415 not JSON; 500 anything unexpected (the row then stays `pending`
   * when the charge's outcome is unknown).
   * NOTE: monthly and yearly gifts are charged once now; recurring billing is not built yet.
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
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          500: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const submission = request.body;
      const card = submission.creditCard;
      const amountCents = dollarsToCents(submission.amount);
      // NOTE: the brand comes from the number itself; the payload's `type` is the browser's guess and never trusted.
      const cardBrand = detectCardBrand(card.number);
      const last4 = cardLast4(card.number);

      const donationId = await createPendingDonation(db, {
        amountCents,
        currency: CURRENCY,
        frequency: submission.frequency,
        cause: submission.cause,
        donorName: submission.donorName,
        donorEmail: submission.donorEmail,
        donorPhone: orNull(submission.donorPhone),
        address: {
          street: orNull(submission.donorAddress?.street),
          city: orNull(submission.donorAddress?.city),
          state: orNull(submission.donorAddress?.state),
          zipCode: orNull(submission.donorAddress?.zipCode),
          country: orNull(submission.donorAddress?.country),
        },
        message: orNull(submission.message),
        isAnonymous: submission.isAnonymous,
        cardBrand,
        cardLast4: last4,
        gateway: gateway.name,
        isTestPayment: gateway.isTestMode,
      });
      const outcomeLog = { donationId, amountCents, currency: CURRENCY, cardBrand, last4, gateway: gateway.name };

      let result;
      try {
        result = await gateway.charge({
          amountCents,
          currency: CURRENCY,
          card: {
            number: card.number,
            expiryMonth: Number(card.expiryMonth),
            expiryYear: Number(card.expiryYear),
            cvc: card.cvv,
          },
          description: `Donation (${submission.frequency}): ${CAUSE_DETAILS[submission.cause].displayName}`,
          idempotencyKey: donationId,
        });
      } catch (error) {
        request.log.error({ err: error, donation: { ...outcomeLog, status: 'pending' } }, 'Charge failed; outcome unknown');
        throw error;
      }

      if (result.status === 'succeeded') {
        await markDonationSucceeded(db, donationId, result);
        request.log.info(
          {
            donation: {
              ...outcomeLog,
              status: 'succeeded',
              cardBrand: result.cardBrand,
              last4: result.last4,
              transactionId: result.transactionId,
              isTestPayment: result.isTestPayment,
            },
          },
          'Donation succeeded',
        );
        return reply.code(200).send({
          success: true,
          data: {
            amount: centsToDollars(amountCents),
            donorName: submission.donorName,
            transactionId: result.transactionId,
            isTestPayment: result.isTestPayment,
          },
        });
      }

      await markDonationFailed(db, donationId, result);
      request.log.info(
        {
          donation: { ...outcomeLog, status: 'failed', declineCode: result.declineCode, isTestPayment: result.isTestPayment },
        },
        'Donation declined',
      );
      return reply.code(402).send({ success: false, error: result.message });
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
