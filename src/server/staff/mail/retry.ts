import type { Database } from '../../db/client';
import { retryMailNow, type RetryNowOutcome } from '../../mail/outbox';
import { recordStaffAction } from '../identity/audit-record';
import type { StaffActor } from '../identity/audit-record';

import { MAIL_AUDIT_ACTIONS, MAIL_SUBJECT } from '../../../shared/staff/audit-actions';

/** Audit action of "retry now" and the subject type of a message (`mail_message`, the outbox id): shared/staff/audit-actions.ts. */
export { MAIL_AUDIT_ACTIONS, MAIL_SUBJECT };

/**
 * "Retry now" for staff (issue #22, "Mail"; decision 0073): makes message `id` due at `now` (mail/outbox.ts
 * retryMailNow: never one a relay is sending) and writes its audit entry (kind, recipient, previous status, donation) in
 * the same transaction. Resolves with retryMailNow's outcome; writes nothing unless `due`.
 */
export async function retryMailForStaff(db: Database, id: string, now: Date, actor: StaffActor): Promise<RetryNowOutcome> {
  return db.transaction(async (tx) => {
    const outcome = await retryMailNow(tx, id, now);
    if (outcome.kind !== 'due') return outcome;
    const { row, previousStatus } = outcome;
    await recordStaffAction(tx, {
      ...actor,
      action: MAIL_AUDIT_ACTIONS.retriedNow,
      subjectType: MAIL_SUBJECT,
      subjectId: row.id,
      details: { kind: row.kind, recipient: row.recipient, previousStatus, attempts: row.attempts, donationId: row.donationId },
    });
    return outcome;
  });
}
