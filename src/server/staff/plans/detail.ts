import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { StaffPlanDetail } from '../../../shared/staff/plans-api';
import type { Database } from '../../db/client';
import { donations, receipts, recurringPlanChanges, recurringPlans, staffMembers, type RecurringPlanRow } from '../../db/schema';
import { chargeDate, toIsoDate } from '../../recurring/calendar';
import { donorKeyOf } from '../shared/donor-key';
import { staffStatusSql } from '../shared/status';
import { planChargeCountSql } from '../shared/plan-charges';

/**
 * A plan's page for staff (issue #22, "A plan's page"): the plan, its donor (its first gift's name and address), card,
 * next charge, dunning state, every charge with its receipt and outcome, and every change with who made it. Money in
 * integer cents.
 */

/** Charges and changes shown at most (a monthly plan makes 12 charges a year; dozens of years fit). */
const MOST_ROWS = 500;

/** The charges of `plan`, newest period and try first, with their receipts and statuses as staff see them. */
async function chargesOf(db: Database, plan: RecurringPlanRow) {
  const rows = await db
    .select({
      donationId: donations.id,
      period: donations.recurringPeriod,
      attempt: donations.recurringAttempt,
      createdAt: donations.createdAt,
      amountCents: donations.amountCents,
      status: staffStatusSql,
      refundedCents: donations.refundedCents,
      receiptNumber: receipts.number,
      declineCode: donations.declineCode,
    })
    .from(donations)
    .leftJoin(receipts, eq(receipts.donationId, donations.id))
    .where(eq(donations.recurringPlanId, plan.id))
    .orderBy(sql`${donations.recurringPeriod} DESC, ${donations.recurringAttempt} DESC`)
    .limit(MOST_ROWS);
  return rows.map(({ period, attempt, createdAt, ...row }) => ({
    ...row,
    period: period ?? 0,
    attempt: attempt ?? 1,
    date: chargeDate(plan.anchorDate, plan.frequency, period ?? 0),
    createdAt: createdAt.toISOString(),
  }));
}

/** The changes of plan `planId`, newest first, with the staff member's address for a staff change. */
async function changesOf(db: Database, planId: string) {
  const rows = await db
    .select({
      id: recurringPlanChanges.id,
      createdAt: recurringPlanChanges.createdAt,
      actorType: recurringPlanChanges.actorType,
      staffEmail: staffMembers.email,
      action: recurringPlanChanges.action,
      details: recurringPlanChanges.details,
    })
    .from(recurringPlanChanges)
    .leftJoin(staffMembers, eq(staffMembers.id, recurringPlanChanges.staffMemberId))
    .where(eq(recurringPlanChanges.planId, planId))
    .orderBy(desc(recurringPlanChanges.createdAt), desc(recurringPlanChanges.id))
    .limit(MOST_ROWS);
  return rows.map(({ createdAt, ...row }) => ({ ...row, createdAt: createdAt.toISOString() }));
}

/**
 * The plan's last charge (the newest try charged: refunded in part or in full, or disputed, included, so a cancel with refund sent
 * again finds the same one), with what is left to refund of it; undefined when it has none.
 */
export async function lastChargeOf(db: Database, planId: string) {
  const [row] = await db
    .select({ donationId: donations.id, amountCents: donations.amountCents, refundedCents: donations.refundedCents, receiptNumber: receipts.number })
    .from(donations)
    .leftJoin(receipts, eq(receipts.donationId, donations.id))
    .where(and(eq(donations.recurringPlanId, planId), inArray(donations.status, ['succeeded', 'refunded', 'disputed'])))
    .orderBy(sql`${donations.recurringPeriod} DESC, ${donations.recurringAttempt} DESC`)
    .limit(1);
  return row;
}

/**
 * The plan `planId` as its staff page shows it (StaffPlanDetailSchema), or undefined when there is none. `retriesTotal`
 * is DUNNING_RETRY_DAYS's length (the dunning state's "retry n of m"). Rejects when the database fails.
 */
export async function readStaffPlanDetail(db: Database, planId: string, retriesTotal: number): Promise<StaffPlanDetail | undefined> {
  const [found] = await db
    .select({ plan: recurringPlans, donorName: donations.donorName, email: donations.donorEmail, chargeCount: planChargeCountSql() })
    .from(recurringPlans)
    .innerJoin(donations, eq(donations.id, recurringPlans.firstDonationId))
    .where(eq(recurringPlans.id, planId));
  if (!found) return undefined;
  const { plan } = found;
  const [charges, changes, last] = await Promise.all([chargesOf(db, plan), changesOf(db, planId), lastChargeOf(db, planId)]);
  const pastDue = plan.status === 'past_due' && plan.pastDueSince !== null;
  return {
    id: plan.id,
    status: plan.status,
    amountCents: plan.amountCents,
    currency: plan.currency,
    frequency: plan.frequency,
    cause: plan.cause,
    createdAt: plan.createdAt.toISOString(),
    nextChargeOn: plan.status === 'active' ? plan.nextChargeOn : plan.status === 'past_due' ? toIsoDate(plan.nextAttemptAt) : null,
    pausedUntil: plan.pausedUntil,
    mode: plan.isTestPayment ? 'test' : 'live',
    gateway: plan.gateway,
    donor: { name: found.donorName, email: found.email, donorKey: donorKeyOf(found.email) },
    firstDonationId: plan.firstDonationId,
    card: { brand: plan.cardBrand, last4: plan.cardLast4, expiryMonth: plan.cardExpiryMonth, expiryYear: plan.cardExpiryYear },
    dunning:
      pastDue && plan.pastDueSince
        ? { retry: plan.retryCount, retriesTotal, nextRetryAt: plan.nextAttemptAt.toISOString(), pastDueSince: plan.pastDueSince.toISOString() }
        : null,
    lastCharge: last ? { donationId: last.donationId, amountCents: last.amountCents, refundableCents: last.amountCents - last.refundedCents, receiptNumber: last.receiptNumber } : null,
    cancelReason: plan.cancelReason,
    chargeCount: found.chargeCount,
    charges,
    changes,
  };
}
