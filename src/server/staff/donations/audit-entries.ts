import { and, asc, eq, like, or, sql } from 'drizzle-orm';
import { DONOR_SUBJECT } from '../../../shared/staff/audit-actions';
import type { StaffDonationDetail } from '../../../shared/staff/donations-api';
import type { Database } from '../../db/client';
import { adminAuditLog } from '../../db/schema';


/**
 * The audit entries naming donation `donationId` (issue #21, "A donation": "the audit entries that name it"), oldest
 * first: the staff actions about it (subject_type `donation`, subject_id its id) and the operator's requests on it
 * (admin/audit.ts writes their target as the route's parameters, `id=<donation id>...`), and the donor-wide
 * corrections and merges that changed it (issue #36: their `donationIds`). Rejects when the database fails.
 */
export async function listDonationAuditEntries(db: Database, donationId: string): Promise<StaffDonationDetail['audit']> {
  const rows = await db
    .select()
    .from(adminAuditLog)
    .where(
      or(
        eq(adminAuditLog.subjectId, donationId),
        eq(adminAuditLog.target, `id=${donationId}`),
        like(adminAuditLog.target, `id=${donationId}&%`),
        // Issue #36: a donor-wide correction or a merge that changed the gift (admin_audit_log_donor_donations_idx).
        and(eq(adminAuditLog.subjectType, DONOR_SUBJECT), sql`${adminAuditLog.details} -> 'donationIds' @> jsonb_build_array(${donationId}::text)`),
      ),
    )
    .orderBy(asc(adminAuditLog.createdAt));
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    actorType: row.actorType,
    actorEmail: row.actorEmail,
    details: row.details ?? (row.statusCode === null ? null : { statusCode: row.statusCode }),
    createdAt: row.createdAt.toISOString(),
  }));
}
