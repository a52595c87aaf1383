import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client';
import { enqueueMail } from '../../mail/outbox';
import { statementDedupeKey } from '../../receipts/statements';
import { recordStaffAction } from '../identity/audit-record';
import type { StaffActor } from '../identity/audit-record';
import { readDonorIdentities } from './donor-names';
import { statementYearsOf } from './detail';

/**
 * A donor's year-end statement sent again by staff (issue #22, "A donor's page": "resend a year's statement"; decision
 * 0072), through the statements' own message (receipts/statements.ts: kind `year_end_statement`, rendered when sent
 * from the receipts of that year that are not void, receipts/compose.tsx).
 */

import { DONOR_AUDIT_ACTIONS, DONOR_SUBJECT } from '../../../shared/staff/audit-actions';

/** Audit actions on a donor and the subject type of a donor (`donor`, the donor key): shared/staff/audit-actions.ts. */
export { DONOR_AUDIT_ACTIONS, DONOR_SUBJECT };

/**
 * What became of a resend: `queued` to `recipient` (message `messageId`); `not_found` (no donor of that key);
 * `no_statement` (the year is not over, or the donor has no receipt of it that is not void).
 */
export type StatementResendOutcome = { kind: 'queued'; recipient: string; messageId: string } | { kind: 'not_found' } | { kind: 'no_statement'; years: number[] };

/**
 * Queues the `year` statement of the donor `donorKey` at `now` to the address of their latest gift as typed, with its
 * audit entry, in one transaction. The statement's own dedupe key (`year_end_statement:<year>:<address>`) is used when
 * that year's statement was never queued (so the January runner cannot send a second one later); otherwise the message
 * gets a key of its own (`...:staff:<uuid>`), so each resend is a row and Message-ID of its own (as receipts sent
 * again, decision 0086). Resolves with the outcome; writes nothing unless `queued`. Rejects when the database fails.
 */
export async function resendStatementForStaff(
  db: Database,
  { donorKey, year, now }: { donorKey: string; year: number; now: Date },
  actor: StaffActor,
): Promise<StatementResendOutcome> {
  return db.transaction(async (tx): Promise<StatementResendOutcome> => {
    const recipient = (await readDonorIdentities(tx, [donorKey])).get(donorKey)?.emails[0];
    if (recipient === undefined) return { kind: 'not_found' };
    const years = await statementYearsOf(tx, donorKey, now);
    if (!years.includes(year)) return { kind: 'no_statement', years };
    const message = { kind: 'year_end_statement' as const, recipient, statementYear: year };
    const messageId =
      (await enqueueMail(tx, { ...message, dedupeKey: statementDedupeKey(year, recipient) })) ??
      (await enqueueMail(tx, { ...message, dedupeKey: `${statementDedupeKey(year, recipient)}:staff:${randomUUID()}` }));
    if (messageId === undefined) throw new Error('A statement with a fresh dedupe key was not queued');
    await recordStaffAction(tx, {
      ...actor,
      action: DONOR_AUDIT_ACTIONS.statementResent,
      subjectType: DONOR_SUBJECT,
      subjectId: donorKey,
      details: { year, recipient, messageId },
    });
    return { kind: 'queued', recipient, messageId };
  });
}
