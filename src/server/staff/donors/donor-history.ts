import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { DONATION_SUBJECT, DONOR_AUDIT_ACTIONS, DONOR_SUBJECT, PLAN_SUBJECT } from '../../../shared/staff/audit-actions';
import type { StaffDonorDetail } from '../../../shared/staff/donors-api';
import type { Database } from '../../db/client';
import { adminAuditLog, donationRefunds, donorMerges, mailOutbox } from '../../db/schema';
import { auditRowOf } from '../identity/audit-record';
import { mailStateOf } from '../shared/mail-state';
import { MERGE_UNDO_WINDOW_MS } from './merge';
import { selectRows } from './raw-rows';


/**
 * What a donor's page shows beside gifts and plans (issue #36, part 1: "the donor page shows gifts, plans, e-mails sent
 * and the audit of that donor in one place"): the e-mails, the audit entries, the merges.
 */

/** Most e-mails and audit entries a donor's page lists (newest first). */
export const DONOR_HISTORY_LIMIT = 200;

/**
 * Every e-mail about the donor, newest first (at most {@link DONOR_HISTORY_LIMIT}): those about one of `giftIds`, one
 * of their refunds or one of `planIds` (a dedication card included: it is about the gift), and the year-end
 * statements queued to `address` (lower case). Rejects when the database fails.
 */
export async function readDonorEmails(db: Database, giftIds: readonly string[], planIds: readonly string[], address: string): Promise<StaffDonorDetail['mail']> {
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(
      or(
        giftIds.length > 0 ? inArray(mailOutbox.donationId, [...giftIds]) : undefined,
        giftIds.length > 0 ? inArray(mailOutbox.refundId, db.select({ id: donationRefunds.id }).from(donationRefunds).where(inArray(donationRefunds.donationId, [...giftIds]))) : undefined,
        planIds.length > 0 ? inArray(mailOutbox.recurringPlanId, [...planIds]) : undefined,
        and(eq(mailOutbox.kind, 'year_end_statement'), eq(sql`lower(${mailOutbox.recipient})`, address)),
      ),
    )
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(DONOR_HISTORY_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    recipient: row.recipient,
    state: mailStateOf(row),
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  }));
}

/**
 * Every donor key the donor `donorKey` had: itself, and (following the donor's own audit entries back) the key before
 * each donor-wide correction and the key of each donor merged into it. Rejects when the database fails.
 */
async function formerDonorKeys(db: Database, donorKey: string): Promise<string[]> {
  const rows = await selectRows<{ key: string }>(db, sql`
    WITH RECURSIVE keys(key) AS (
      SELECT ${donorKey}::text
      UNION
      SELECT coalesce(a.details ->> 'previousDonorKey', a.details ->> 'sourceDonorKey')
        FROM ${adminAuditLog} a JOIN keys ON a.subject_id = keys.key
        WHERE a.subject_type = ${DONOR_SUBJECT} AND a.action IN (${DONOR_AUDIT_ACTIONS.emailCorrected}, ${DONOR_AUDIT_ACTIONS.merged})
    )
    SELECT key FROM keys WHERE key IS NOT NULL`);
  return rows.map((row) => row.key);
}

/**
 * The audit entries of the donor, newest first (at most {@link DONOR_HISTORY_LIMIT}): those about the donor (under
 * their key now or a former one: formerDonorKeys), about one of `giftIds` or one of `planIds`.
 */
export async function readDonorAudit(db: Database, donorKey: string, giftIds: readonly string[], planIds: readonly string[]): Promise<StaffDonorDetail['audit']> {
  const keys = await formerDonorKeys(db, donorKey);
  const rows = await db
    .select()
    .from(adminAuditLog)
    .where(
      or(
        and(eq(adminAuditLog.subjectType, DONOR_SUBJECT), inArray(adminAuditLog.subjectId, keys)),
        giftIds.length > 0 ? and(eq(adminAuditLog.subjectType, DONATION_SUBJECT), inArray(adminAuditLog.subjectId, [...giftIds])) : undefined,
        planIds.length > 0 ? and(eq(adminAuditLog.subjectType, PLAN_SUBJECT), inArray(adminAuditLog.subjectId, [...planIds])) : undefined,
      ),
    )
    .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
    .limit(DONOR_HISTORY_LIMIT);
  return rows.map(auditRowOf);
}

/** The merges into the donor `donorKey`, newest first, with until when each can be undone and whether it can be at `now`. */
export async function readDonorMerges(db: Database, donorKey: string, now: Date): Promise<StaffDonorDetail['merges']> {
  const rows = await db.select().from(donorMerges).where(eq(donorMerges.targetDonorKey, donorKey)).orderBy(desc(donorMerges.mergedAt));
  return rows.map((row) => ({
    id: row.id,
    sourceDonorKey: row.sourceDonorKey,
    sourceEmail: row.sourceEmail,
    mergedByEmail: row.mergedByEmail,
    mergedAt: row.mergedAt.toISOString(),
    giftCount: row.changes.donations.length,
    undoneAt: row.undoneAt?.toISOString() ?? null,
    undoableUntil: new Date(row.mergedAt.getTime() + MERGE_UNDO_WINDOW_MS).toISOString(),
    undoable: row.undoneAt === null && now.getTime() - row.mergedAt.getTime() <= MERGE_UNDO_WINDOW_MS,
  }));
}
