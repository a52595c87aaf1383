/** The audit log's names for staff actions on donations, shared by every staff capability that acts on one. */

/** The subject type of a donation in the audit log (subject_type), as staff actions on donations record it. */
export const DONATION_SUBJECT = 'donation';

/** Audit actions of this part (admin_audit_log.action). */
export const DONATION_AUDIT_ACTIONS = {
  refund: 'donation.refund',
  receiptResent: 'donation.receipt_resent',
  emailCorrected: 'donation.email_corrected',
  exported: 'donation.export',
} as const;
