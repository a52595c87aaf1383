import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_PATHS } from '../../shared/api';
import { SupporterChoiceInputSchema, SupporterChoiceSchema, SupporterTokenParamsSchema } from '../../shared/campaign-supporters';
import type { Database } from '../db/client';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../http/error-answers';
import { apiError, NOT_FOUND_MESSAGE } from '../http/errors';
import type { Clock } from '../platform/clock';
import type { ReceiptLinkSigner } from '../receipts/receipt-link';
import { choiceOf, listableGift, storeSupporterChoice } from './supporters';

/** What the supporter routes need: the database, the clock, and the receipt link signer (the donor's proof). */
export interface SupporterRoutesOptions {
  db: Database;
  clock: Clock;
  links: ReceiptLinkSigner;
}

/**
 * The donor's choice to appear on a campaign's supporters' list (issue #34, "Supporters' list"; decision 0103), from the
 * thank-you page. `:token` is the gift's receipt token (receipts/receipt-link.ts), which only the donor's thank-you page
 * (and receipt e-mail) holds: it proves the gift is theirs. 404 (one answer) for a malformed, forged or expired token,
 * and for a gift that cannot be listed (not succeeded, anonymous, no campaign, or a campaign whose list is off).
 */
export const supporterRoutes: FastifyPluginAsyncZod<SupporterRoutesOptions> = async (app, { db, clock, links }) => {
  /** The gift's transaction id a token names (undefined for a malformed, forged or expired one). */
  const transactionOf = (token: string) => links.verify(token, clock.now());
  /** The listable gift a token names, or undefined. */
  const giftOf = async (token: string) => {
    const transactionId = transactionOf(token);
    return transactionId === undefined ? undefined : listableGift(db, transactionId);
  };

  /**
   * GET /api/campaign-supporters/:token: the choice stored (SupporterChoiceSchema; both false until the donor chose);
   * 204 (nothing to offer) for a genuine token whose gift cannot be listed, which the thank-you page of every gift made
   * from a campaign link asks about (an error answer would be logged by the donor's browser as a failed load); 404 for
   * a malformed, forged or expired token.
   */
  app.get(
    API_PATHS.campaignSupporter,
    {
      schema: {
        summary: "A campaign gift's choice to appear on the campaign's supporters' list",
        params: SupporterTokenParamsSchema,
        response: {
          200: SupporterChoiceSchema,
          204: z.null().describe('The gift cannot be listed (anonymous, no campaign, or a campaign whose list is off): nothing to offer.'),
          ...errorAnswers(400, 404, 500),
        },
      },
    },
    async (request, reply) => {
      const transactionId = transactionOf(request.params.token);
      if (transactionId === undefined) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      const gift = await listableGift(db, transactionId);
      if (!gift) return reply.code(204).send(null);
      return reply.code(200).send(choiceOf(gift));
    },
  );

  /**
   * PUT /api/campaign-supporters/:token `{showName, showMessage}`: stores the choice (idempotent: the same body twice
   * stores it once) and answers it as stored (the message shown only when the gift has one); 400 (fieldErrors) bad
   * input, `showMessage` without `showName`; 404 as above; CSRF as every page write. Nothing is written on an error.
   */
  app.put(
    API_PATHS.campaignSupporter,
    {
      schema: {
        summary: "Choose whether a campaign gift's name (and message) appear on the campaign's supporters' list",
        params: SupporterTokenParamsSchema,
        body: SupporterChoiceInputSchema,
        response: { 200: SupporterChoiceSchema, ...errorAnswers(...PAGE_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const gift = await giftOf(request.params.token);
      if (!gift) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      const stored = await storeSupporterChoice(db, gift, request.body, clock.now());
      request.log.info({ donationId: gift.donationId, showName: stored.showName, showMessage: stored.showMessage }, 'Supporter choice stored');
      return reply.code(200).send(stored);
    },
  );
};
