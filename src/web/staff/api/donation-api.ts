import { IDEMPOTENCY_KEY_HEADER } from '../../../shared/api';
import type {
  StaffDonationDetail,
  StaffEmailCorrectionAnswerSchema,
  StaffRefundAnswer,
  StaffResendAnswerSchema,
} from '../../../shared/staff/donations-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import type { z } from 'zod';
import { staffFetch } from './staff-fetch';

/** One donation's detail: every field, receipt, e-mails, refunds, dispute, plan, audit entries, and the timeline. */
export function fetchDonation(id: string): Promise<StaffDonationDetail> {
  return staffFetch(staffApiPath(STAFF_API.donation, id));
}

/** The address of the donation's receipt PDF (a plain GET: the browser downloads it). */
export function receiptPdfUrl(id: string): string {
  return staffApiPath(STAFF_API.donationReceiptPdf, id);
}

/**
 * Refunds `amountCents` of the donation (undefined: all that is left) for `reason`, under `idempotencyKey` (one per
 * refund the person means, so a retry after a lost answer or a re-confirmation never refunds twice). Rejects with
 * a StaffApiError: 403 `staff_reauth_required` when the passkey must be confirmed first.
 */
export function refundDonation(id: string, body: { amountCents?: number; reason: string }, idempotencyKey: string): Promise<StaffRefundAnswer> {
  return staffFetch(staffApiPath(STAFF_API.donationRefunds, id), { method: 'POST', json: body, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });
}

/** Queues the receipt to the donation's address again; resolves with that address. */
export function resendReceipt(id: string): Promise<z.infer<typeof StaffResendAnswerSchema>> {
  return staffFetch(staffApiPath(STAFF_API.donationReceiptResend, id), { method: 'POST' });
}

/** Corrects the donation's (and its plan's) e-mail address to `email`, and with `resend` queues the receipt to it. */
export function correctEmail(id: string, email: string, resend: boolean): Promise<z.infer<typeof StaffEmailCorrectionAnswerSchema>> {
  return staffFetch(staffApiPath(STAFF_API.donationEmail, id), { method: 'POST', json: { email, resend } });
}
