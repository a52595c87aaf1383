import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  StaffDonationDetailSchema,
  StaffDonationExportQuerySchema,
  StaffDonationListAnswerSchema,
  StaffDonationListQuerySchema,
  StaffEmailCorrectionAnswerSchema,
  StaffEmailCorrectionRequestSchema,
  StaffRefundAnswerSchema,
  StaffRefundRequestSchema,
  StaffResendAnswerSchema,
} from '../../../shared/staff/donations-api';
import { EmptyBodySchema } from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import { EXPORT_CONTENT_TYPE } from '../../admin/export-routes';
import { answerRefund, DONATION_NOT_FOUND_MESSAGE, UUID_PATTERN } from '../../admin/refund-route';
import type { Database } from '../../db/client';
import { errorAnswers } from '../../http/error-answers';
import { apiError } from '../../http/errors';
import type { PaymentGateway } from '../../payments/gateway';
import type { OrganizationProfile } from '../../platform/config';
import type { Clock } from '../../platform/clock';
import { receiptPdfUrl, type ReceiptLinkSigner } from '../../receipts/receipt-link';
import { renderReceiptPdf } from '../../receipts/receipt-pdf';
import { findReceiptByDonationId } from '../../receipts/repository';
import { recordStaffAction } from '../identity/audit-record';
import { READ_ERRORS, WRITE_ERRORS } from '../identity/errors';
import { requireRecentStrongAuth, requireStaff, signedInMember } from '../identity/guard';
import { correctDonorEmail, resendReceiptForStaff } from './actions';
import { DONATION_AUDIT_ACTIONS } from '../shared/donation-audit';
import { refundForStaff } from '../shared/refund';
import { readStaffDonationDetail } from './detail';
import { exportFileName, exportFilteredDonations, isFilteredExport } from './export';
import { listStaffDonations } from './list';
import { staffStatusOf } from '../shared/status';

/**
 * The staff donations API (issue #21, "Donations", "A donation" and "API"), under /api/staff/donations: the list with
 * its totals, the export of the filtered set, a donation's detail and receipt, and the actions. Every route is behind
 * requireStaff(right) (401 without a valid session, 403 when the role lacks the right: shared/staff/roles.ts); JSON,
 * CSRF on writes and `Cache-Control: no-store` as every /api route (http/csrf.ts, http/security-headers.ts).
 */

/** What the staff donations routes need. */
export interface StaffDonationsOptions {
  db: Database;
  /** The gateway refunds go through (within GATEWAY_TIMEOUT_MS), as the operator's refunds. */
  gateway: PaymentGateway;
  /** The injected clock: recent strong authentication of refunds, receipt links. */
  clock: Clock;
  /** The staff's time zone (TZ, as the daily digest): the days of the date filters. */
  timeZone: string;
  /** For the receipt PDF: the organisation printed on it, the site's PUBLIC_URL and the receipt link signer. */
  organization: OrganizationProfile;
  publicUrl: string;
  links: ReceiptLinkSigner;
}

/** 409 of a resend for a donation without a receipt (pending or declined: nothing was received). */
export const NO_RECEIPT_MESSAGE = 'This donation has no receipt: it was never charged (pending or declined).';
/** 404 of a receipt PDF asked for a donation that has none (or does not exist). */
export const NO_RECEIPT_PDF_MESSAGE = 'This donation has no receipt.';
/** 409 of a resend for a donation whose receipt is void (refunded in full): the void notice was sent instead. */
export const RECEIPT_VOID_MESSAGE = 'The receipt of this donation is void (it was refunded in full): there is no receipt to send.';
/** 409 of a resend for a gift whose donor has no e-mail (issue #37; decision 0112): its PDF is posted instead. */
export const NO_EMAIL_RECEIPT_MESSAGE = "This donor has no e-mail address: download the receipt's PDF to post it, or correct the donor's e-mail first.";

/** A donation's id in a path: any text (one that names no donation, a non-UUID included, answers 404). */
const DonationParamsSchema = z.object({ id: z.string().max(100) });

/** The staff donations routes; see each route's comment. */
export const staffDonationRoutes: FastifyPluginAsyncZod<StaffDonationsOptions> = async (app, options) => {
  const { db, gateway, clock, timeZone } = options;

  /**
   * GET /api/staff/donations (right `read`): one page of the donations the query's filters select, sorted, with the
   * totals of the whole filtered set (listStaffDonations). 400 (fieldErrors) an unknown parameter or a bad value.
   */
  app.get(
    STAFF_API.donations,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: 'Staff: list donations with filters, search, sort, pagination and the totals of the filtered set',
        querystring: StaffDonationListQuerySchema,
        response: { 200: StaffDonationListAnswerSchema, ...READ_ERRORS },
      },
    },
    async (request, reply) => reply.code(200).send(await listStaffDonations(db, request.query, timeZone)),
  );

  /**
   * GET /api/staff/donations/export?format=... (right `export`): the CSV of exactly the gifts the same filters select
   * (exportFilteredDonations: the operator's export's formats and streaming), as an attachment; audited
   * (`donation.export`, the format and filters in its details) before the file streams. 400 a bad query.
   */
  app.get(
    STAFF_API.donationsExport,
    {
      preHandler: requireStaff('export'),
      // NOTE: as the operator's export (admin/export-routes.ts): uncompressed so rows leave as read, and no HEAD route.
      compress: false,
      exposeHeadRoute: false,
      schema: {
        summary: 'Staff: export the filtered donations as CSV (standard or a CRM import format)',
        querystring: StaffDonationExportQuerySchema,
        response: {
          200: { description: 'The CSV file (attachment): a header row, then one row per gift', content: { 'text/csv': { schema: z.instanceof(Readable) } } },
          ...READ_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const member = signedInMember(request);
      const { format, ...filters } = request.query;
      await recordStaffAction(db, { staffMember: member, requestId: request.id, action: DONATION_AUDIT_ACTIONS.exported, details: { format, filters } });
      return reply
        .code(200)
        .header('content-type', EXPORT_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="${exportFileName(format, isFilteredExport(request.query), clock.now())}"`)
        .send(exportFilteredDonations(db, request.query, timeZone));
    },
  );

  /** GET /api/staff/donations/:id (right `read`): the donation's detail with its timeline (readStaffDonationDetail); 404 none. */
  app.get(
    STAFF_API.donation,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: 'Staff: a donation with its receipt, e-mails, refunds, dispute, plan, audit entries and timeline',
        params: DonationParamsSchema,
        response: { 200: StaffDonationDetailSchema, ...READ_ERRORS, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const detail = UUID_PATTERN.test(request.params.id) ? await readStaffDonationDetail(db, request.params.id) : undefined;
      if (!detail) return reply.code(404).send(apiError(DONATION_NOT_FOUND_MESSAGE));
      return reply.code(200).send(detail);
    },
  );

  /**
   * GET /api/staff/donations/:id/receipt.pdf (right `read`): the receipt's PDF as the donor's link gives it (void or
   * corrected after a refund, as it stands), `inline; filename="receipt-<number>.pdf"`, never cached. 404 no such
   * donation or no receipt.
   */
  app.get(
    STAFF_API.donationReceiptPdf,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: "Staff: a donation's receipt PDF",
        params: DonationParamsSchema,
        response: {
          200: { description: 'The receipt, a tagged PDF (inline, receipt-<number>.pdf)', content: { 'application/pdf': { schema: z.instanceof(Buffer) } } },
          ...READ_ERRORS,
          ...errorAnswers(404),
        },
      },
    },
    async (request, reply) => {
      const receipt = UUID_PATTERN.test(request.params.id) ? await findReceiptByDonationId(db, request.params.id) : undefined;
      if (!receipt) return reply.code(404).send(apiError(NO_RECEIPT_PDF_MESSAGE));
      const pdfUrl = receiptPdfUrl(options.publicUrl, options.links.sign(receipt.transactionId, clock.now()));
      const pdf = await renderReceiptPdf(receipt, { organization: options.organization, pdfUrl, publicUrl: options.publicUrl });
      return reply.code(200).type('application/pdf').header('content-disposition', `inline; filename="receipt-${receipt.number}.pdf"`).send(pdf);
    },
  );

  /**
   * POST /api/staff/donations/:id/refunds `{amountCents?, reason}` + `Idempotency-Key` (right `refund`, and a passkey
   * or link sign-in within 15 minutes: requireRecentStrongAuth): the operator's refund semantics (refundForStaff:
   * all that is left without `amountCents`, never more, once per key, the donor notified), audited with the reason.
   * 201 `{refund, donation}` (cents); the same key again answers the first refund (`Idempotent-Replayed: true`).
   * 400 no or bad key, bad body, or more than is left (`fieldErrors.amountCents`); 403 `staff_reauth_required`;
   * 404; 409 not refundable or refused by the gateway; 422 key reused for another donation or amount; 503 outcome unknown, or
   * the key's refund still being settled (decision 0095: retry with the same key).
   */
  app.post(
    STAFF_API.donationRefunds,
    {
      preHandler: [requireStaff('refund'), requireRecentStrongAuth(clock)],
      schema: {
        summary: 'Staff: refund a donation, all that is left or part, with a reason',
        params: DonationParamsSchema,
        body: StaffRefundRequestSchema,
        response: { 201: StaffRefundAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const { amountCents, reason } = request.body;
      return answerRefund(request, reply, {
        donationId: request.params.id,
        amountCents,
        amountField: 'amountCents',
        refund: (asked) => refundForStaff({ db, gateway }, { ...asked, reason }, { staffMember: signedInMember(request), requestId: request.id }),
        refunded: ({ refund, donation, replayed }) => {
          request.log.info({ event: 'refund.made', by: 'staff', donationId: donation.id, refundId: refund.id, amountCents: refund.amountCents, replayed }, replayed ? 'Refund replayed' : 'Refund made');
          return {
            statusCode: 201,
            body: {
              refund: { id: refund.id, amountCents: refund.amountCents, gatewayRefundId: refund.gatewayRefundId, createdAt: refund.createdAt.toISOString() },
              donation: { id: donation.id, status: staffStatusOf(donation), amountCents: donation.amountCents, refundedCents: donation.refundedCents },
            },
          };
        },
      });
    },
  );

  /**
   * POST /api/staff/donations/:id/receipt/resend (right `resend`): queues the receipt again to the donation's address
   * (resendReceiptForStaff), audited; 202 `{success, recipient}`. 404 no such donation; 409 no receipt, void, or a donor without an e-mail.
   */
  app.post(
    STAFF_API.donationReceiptResend,
    {
      preHandler: requireStaff('resend'),
      schema: {
        summary: "Staff: send a donation's receipt again",
        params: DonationParamsSchema,
        body: EmptyBodySchema,
        response: { 202: StaffResendAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const donationId = request.params.id;
      const outcome = UUID_PATTERN.test(donationId)
        ? await resendReceiptForStaff(db, donationId, { staffMember: signedInMember(request), requestId: request.id })
        : { kind: 'not_found' as const };
      switch (outcome.kind) {
        case 'not_found':
          return reply.code(404).send(apiError(DONATION_NOT_FOUND_MESSAGE));
        case 'no_receipt':
          return reply.code(409).send(apiError(NO_RECEIPT_MESSAGE));
        case 'receipt_void':
          return reply.code(409).send(apiError(RECEIPT_VOID_MESSAGE));
        case 'no_email':
          return reply.code(409).send(apiError(NO_EMAIL_RECEIPT_MESSAGE));
        case 'queued':
          return reply.code(202).send({ success: true, recipient: outcome.recipient });
      }
    },
  );

  /**
   * POST /api/staff/donations/:id/email `{email, resend}` (right `correct`): the donation's and its plan's address
   * become `email`, waiting messages follow, and with `resend` the receipt is queued to it (correctDonorEmail), audited
   * with the old address. 200 `{email, previousEmail, planUpdated, receiptQueued}`. 400 a bad address; 404 none.
   */
  app.post(
    STAFF_API.donationEmail,
    {
      preHandler: requireStaff('correct'),
      schema: {
        summary: "Staff: correct a donation's e-mail address (and its plan's), then optionally resend the receipt",
        params: DonationParamsSchema,
        body: StaffEmailCorrectionRequestSchema,
        response: { 200: StaffEmailCorrectionAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const donationId = request.params.id;
      const { email, resend } = request.body;
      const outcome = UUID_PATTERN.test(donationId)
        ? await correctDonorEmail(db, { donationId, email, resend }, { staffMember: signedInMember(request), requestId: request.id })
        : { kind: 'not_found' as const };
      if (outcome.kind === 'not_found') return reply.code(404).send(apiError(DONATION_NOT_FOUND_MESSAGE));
      const { previousEmail, planUpdated, receiptQueued } = outcome;
      return reply.code(200).send({ email, previousEmail, planUpdated, receiptQueued });
    },
  );
};
