import { z } from 'zod';
import { DonorEmailSchema } from './field-rules';
import { LocaleSchema } from './i18n/locale-schema';

/**
 * Receipts a donor asks for again (issue #12, "Resend"): the page, its API route, the request and the one answer.
 * Shared because the page and the server both name them, and the server's e-mails link to the page.
 */

/** Path of the page where a donor asks for their receipt links again (the e-mails' footer links to it). */
export const RECEIPTS_PAGE_PATH = '/donate/receipts';

/** The link text of a receipt's PDF, the same in the receipt e-mail and on the thank-you page (issue #12). */
export const DOWNLOAD_RECEIPT_LABEL = 'Download your receipt (PDF)';

/** API path of the resend request. */
export const RESEND_RECEIPTS_PATH = '/api/receipts/resend';

/** Body of `POST /api/receipts/resend`: the address donations were made with (the donation form's e-mail rules). */
export const ResendReceiptsRequestSchema = z.strictObject({ email: DonorEmailSchema, locale: LocaleSchema.optional() });
/** A resend request. */
export type ResendReceiptsRequest = z.infer<typeof ResendReceiptsRequestSchema>;

/**
 * The sentence of every 202 answer and of the page's confirmation. NOTE: the same whatever the address, so
 * neither the answer nor the page tells anyone whether that address gave (issue #12).
 */
export const RESEND_RECEIPTS_CONFIRMATION =
  'If we have donations from this address, we will email it a link to each receipt within a few minutes. If nothing arrives, check your spam folder, or the address you gave with your donation.';

/** The 202 answer of `POST /api/receipts/resend`: always `{success: true, message}`, the same body for any address. */
export const ResendReceiptsAcceptedSchema = z.object({
  success: z.literal(true),
  message: z.literal(RESEND_RECEIPTS_CONFIRMATION),
});
/** The resend answer. */
export type ResendReceiptsAccepted = z.infer<typeof ResendReceiptsAcceptedSchema>;
