import type { Database } from '../../db/client';
import type { AuditRow } from '../../../shared/staff/identity-api';
import { adminAuditLog, type AdminAuditRow } from '../../db/schema';
import type { SignedInStaffMember } from './sessions';

/**
 * Audit entries of staff actions (issue #21: "Every action is written to the audit log in the same transaction as its
 * effect, with the staff member as the actor"). The operator's requests are recorded by admin/audit.ts's hook.
 */

/** What a staff action's entry says, beside its actor. */
export interface StaffActionEntry {
  /** What was done: `staff.sign_in`, `donation.refund`... (IDENTITY_AUDIT_ACTIONS and the donations part's). */
  action: string;
  /** The kind of record it was about (`donation`, `staff_member`, `passkey`), or null. */
  subjectType?: string | null;
  /** That record's id, or null. */
  subjectId?: string | null;
  /** What else matters (an old address, an amount in cents, a reason); never a token, card data or a secret. */
  details?: Record<string, unknown> | null;
  /** Fastify's request id, as in the request's log lines. */
  requestId?: string | null;
}

/**
 * Writes the audit entry of `staffMember`'s action in `tx` (the transaction of its effect, so both are kept or
 * neither), actor type `staff`, the member's id and address at the time. Rejects when the insert fails, which rolls
 * the effect back.
 */
export async function recordStaffAction(
  tx: Database,
  { staffMember, ...entry }: StaffActionEntry & { staffMember: Pick<SignedInStaffMember, 'id' | 'email'> },
): Promise<void> {
  await tx.insert(adminAuditLog).values({
    actorType: 'staff',
    actorStaffId: staffMember.id,
    actorEmail: staffMember.email,
    action: entry.action,
    subjectType: entry.subjectType ?? null,
    subjectId: entry.subjectId ?? null,
    details: entry.details ?? null,
    requestId: entry.requestId ?? null,
  });
}

/**
 * Writes the audit entry of an event whose person is not known (a sign-in refused for an unknown passkey, a link
 * request for an address that is not staff), actor type `system`. The address asked for, if any, goes in `details`
 * only when it belongs to staff: an outsider's typed address is not kept.
 */
export async function recordSystemAction(tx: Database, entry: StaffActionEntry): Promise<void> {
  await tx.insert(adminAuditLog).values({
    actorType: 'system',
    action: entry.action,
    subjectType: entry.subjectType ?? null,
    subjectId: entry.subjectId ?? null,
    details: entry.details ?? null,
    requestId: entry.requestId ?? null,
  });
}

/** Who acts, and the request's id (as in its log lines), for the audit entry. */
export interface StaffActor {
  staffMember: Pick<SignedInStaffMember, 'id' | 'email'>;
  requestId: string;
}

/** An audit row as the staff API shows it (the audit page, a donor's page): times in ISO 8601, details as stored. */
export function auditRowOf(row: AdminAuditRow): AuditRow {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    actorType: row.actorType,
    actorStaffId: row.actorStaffId,
    actorEmail: row.actorEmail,
    action: row.action,
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    target: row.target,
    statusCode: row.statusCode,
    details: row.details ?? null,
  };
}
