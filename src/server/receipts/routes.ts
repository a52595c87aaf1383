import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_PATHS } from '../../shared/api';
import {
  RESEND_RECEIPTS_CONFIRMATION,
  RESEND_RECEIPTS_PATH,
  ResendReceiptsAcceptedSchema,
  ResendReceiptsRequestSchema,
} from '../../shared/receipts';
import { RECEIPT_PDF_PATH } from '../../shared/receipt-link';
import type { OrganizationProfile } from '../platform/config';
import type { Database } from '../db/client';
import { apiError, NOT_FOUND_MESSAGE } from '../http/errors';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../http/error-answers';
import type { Clock } from '../platform/clock';
import { receiptPdfUrl, type ReceiptLinkSigner } from './receipt-link';
import { renderReceiptPdf } from './receipt-pdf';
import { findReceiptByTransactionId } from './repository';
import { requestReceiptLinks } from './resend';

/** What the receipt routes need. */
export interface ReceiptRoutesOptions {
  db: Database;
  organization: OrganizationProfile;
  /** PUBLIC_URL, for the absolute link printed in the PDF. */
  publicUrl: string;
  links: ReceiptLinkSigner;
  clock: Clock;
}

/** Cache-Control of a receipt's PDF (issue #12): a browser may keep it for the page, no shared cache may store it. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- an HTTP header's value, never shown to a donor
export const RECEIPT_PDF_CACHE_CONTROL = 'private, no-store';

/**
 * The receipt routes (issue #12). Every route declares a schema for each status it answers (DESIGN.md example 9).
 */
export const receiptRoutes: FastifyPluginAsyncZod<ReceiptRoutesOptions> = async (app, { db, organization, publicUrl, links, clock }) => {
  /**
   * GET /api/receipts/pdf/:token: the receipt PDF a capability link names (see receipt-link.ts). Answers 200
   * `application/pdf` (inline, `receipt-<number>.pdf`) with `Cache-Control: private, no-store`; 404 (the same
   * answer) for a malformed, forged or expired token or a transaction without a receipt; 400 a token over 400
   * characters (the params schema); 500 anything unexpected.
   */
  app.get(
    RECEIPT_PDF_PATH,
    {
      schema: {
        summary: 'The receipt PDF a capability link names',
        params: z.object({ token: z.string().max(400) }),
        response: {
          // NOTE: a Buffer is sent as it is (no serializer runs); the schema only tells the document its media type.
          200: { description: 'The receipt, a tagged PDF (inline, receipt-<number>.pdf)', content: { 'application/pdf': { schema: z.instanceof(Buffer) } } },
          ...errorAnswers(400, 404, 500),
        },
      },
      // NOTE: a route-level onSend runs after the app's, which sets `no-store` on every /api answer.
      onSend: async (_request, reply) => {
        reply.header('cache-control', RECEIPT_PDF_CACHE_CONTROL);
      },
    },
    async (request, reply) => {
      const now = clock.now();
      const transactionId = links.verify(request.params.token, now);
      const receipt = transactionId === undefined ? undefined : await findReceiptByTransactionId(db, transactionId);
      if (!receipt) {
        request.log.info({ statusCode: 404 }, 'Receipt link refused (malformed, forged, expired or unknown)');
        return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      }
      const pdf = await renderReceiptPdf(receipt, { organization, pdfUrl: receiptPdfUrl(publicUrl, request.params.token), publicUrl });
      request.log.info({ donationId: receipt.donationId }, 'Receipt PDF downloaded');
      return reply
        .code(200)
        .type('application/pdf')
        .header('content-disposition', `inline; filename="receipt-${receipt.number}.pdf"`)
        .send(pdf);
    },
  );

  /**
   * POST /api/receipts/resend `{email, locale?}` (issue #12, "Resend"; decision 0044): enqueues ONE `receipt_links`
   * message (in `locale`, the page's language, issue #24) listing each donation's receipt link when that address has donations (at most one per address per hour), and
   * nothing otherwise. Answers 202 `{success: true, message: RESEND_RECEIPTS_CONFIRMATION}`, the same body whatever
   * the address, so no one can learn who gave. 400 a missing or malformed address (fieldErrors.email); 403 CSRF, as
   * every POST of the page; 413/415; 429 the card-testing limits per IP, which count every write request of the
   * site (a 202 is not a refusal); 500 anything unexpected. Logs whether a message was queued, never the address.
   */
  app.post(
    RESEND_RECEIPTS_PATH,
    {
      schema: {
        summary: "E-mail an address the receipt links of its donations",
        body: ResendReceiptsRequestSchema,
        response: { 202: ResendReceiptsAcceptedSchema, ...errorAnswers(...PAGE_WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const queued = await requestReceiptLinks(db, request.body.email, clock.now(), request.body.locale);
      request.log.info({ event: 'receipts.resend', queued }, 'Receipt links asked for');
      return reply.code(202).send({ success: true, message: RESEND_RECEIPTS_CONFIRMATION });
    },
  );
};

/**
 * Adds `receiptUrl` (the capability link of the donation's receipt PDF, a path on this site) to every successful answer of
 * POST /api/process-donation, fresh ones and replays alike, so the thank-you page can offer 'Download your
 * receipt (PDF)' (issue #12). A root `preSerialization` hook: the answer the ledger stores for replays stays as it
 * was, and the link is signed when it is sent.
 */
export function addReceiptLinkToDonationAnswers(app: FastifyInstance, { links, clock }: Pick<ReceiptRoutesOptions, 'links' | 'clock'>): void {
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (request.url !== API_PATHS.processDonation || reply.statusCode !== 200) return payload;
    const body = payload as { success?: unknown; data?: { transactionId?: unknown } } | null;
    const transactionId = body?.success === true ? body.data?.transactionId : undefined;
    if (typeof transactionId !== 'string') return payload;
    const receiptUrl = RECEIPT_PDF_PATH.replace(':token', links.sign(transactionId, clock.now()));
    return { ...body, data: { ...body?.data, receiptUrl } };
  });
}
