import type { STAFF_MAIL_STATES } from '../../../shared/staff/donations-api';

/** An outbox message's state as staff see it, in words (the mail page, a donor's statements, a donation's e-mails). */
export const MAIL_STATE_LABELS: Record<(typeof STAFF_MAIL_STATES)[number], string> = {
  queued: 'Queued',
  retrying: 'Retrying',
  sent: 'Sent',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
