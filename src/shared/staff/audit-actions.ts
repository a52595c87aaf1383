/**
 * The audit log's names of staff actions and of the records they are about (admin_audit_log.action and subject_type),
 * defined once for the server that writes them and the staff pages that read them as sentences (issue #36, part 3: "no
 * raw codes on screen"; web/staff/audit/audit-sentence.ts). The identity part's actions stay in identity-api.ts
 * (IDENTITY_AUDIT_ACTIONS); operator requests are named by their route (`POST /api/admin/...`).
 */

/** The subject type of a donation (subject_id: its id). */
export const DONATION_SUBJECT = 'donation';
/** The subject type of a recurring plan (subject_id: its id). */
export const PLAN_SUBJECT = 'recurring_plan';
/** The subject type of a donor (subject_id: the donor key, server/staff/shared/donor-key.ts). */
export const DONOR_SUBJECT = 'donor';
/** The subject type of an outbox message (subject_id: its id). */
export const MAIL_SUBJECT = 'mail_message';
/** The subject type of a campaign (subject_id: its id). */
export const CAMPAIGN_SUBJECT = 'campaign';
/** The subject type of a staff member (subject_id: their id). */
export const STAFF_MEMBER_SUBJECT = 'staff_member';
/** The subject type of a passkey (subject_id: its id). */
export const PASSKEY_SUBJECT = 'passkey';

/** Staff actions on a donation (issue #21). */
export const DONATION_AUDIT_ACTIONS = {
  refund: 'donation.refund',
  receiptResent: 'donation.receipt_resent',
  emailCorrected: 'donation.email_corrected',
  exported: 'donation.export',
} as const;

/** The staff changes of a plan (issue #22): `plan.<action>` of each StaffPlanChangeRequest action. */
export const PLAN_CHANGE_AUDIT_ACTIONS = {
  change_amount: 'plan.change_amount',
  change_cause: 'plan.change_cause',
  pause: 'plan.pause',
  resume: 'plan.resume',
  cancel: 'plan.cancel',
} as const;

/** Other staff actions on a plan (issue #22). */
export const PLAN_AUDIT_ACTIONS = {
  manageLinkSent: 'plan.manage_link_sent',
} as const;

/** Staff actions on a donor (issue #22: a statement sent again; issue #36: correction, merge and its undo, notes). */
export const DONOR_AUDIT_ACTIONS = {
  statementResent: 'donor.statement_resent',
  emailCorrected: 'donor.email_corrected',
  merged: 'donor.merged',
  mergeUndone: 'donor.merge_undone',
  noteAdded: 'donor.note_added',
} as const;

/** Staff actions on an outbox message (issue #22). */
export const MAIL_AUDIT_ACTIONS = { retriedNow: 'mail.retry_now' } as const;

/** Staff actions on a campaign (issue #34). */
export const CAMPAIGN_AUDIT_ACTIONS = { create: 'campaign.create', update: 'campaign.update' } as const;
