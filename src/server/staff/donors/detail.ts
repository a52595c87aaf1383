import { isNoEmailAddress, shownEmail } from '../../../shared/offline-gifts';
import { and, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { StaffDonorDetail } from '../../../shared/staff/donors-api';
import type { Database } from '../../db/client';
import { donations, donorTotals, mailOutbox, offlineGifts, receipts, recurringPlans } from '../../db/schema';
import { mailableDonorSql, statementYearSql } from '../../receipts/repository';
import { lastCompletedYear } from '../../receipts/statements';
import { mailStateOf } from '../shared/mail-state';
import { staffStatusOf } from '../shared/status';
import { readDonorAudit, readDonorEmails, readDonorMerges } from './donor-history';
import { readDonorIdentities } from './donor-names';
import { listDonorNotes } from './notes';
import { donationDonorKeySql, readDonorFigures, zonedYearBounds, zonedYearOf } from './figures';
import { planChargeCountSql } from '../shared/plan-charges';

/**
 * A donor's page (issue #22, "Donors": "all gifts and plans, receipts, the year-end statements sent"), read by donor
 * key through the donor key index (migration 0016_staff_donors). Money in integer cents.
 */

/** `donor_key(donations.donor_email) = key`: the donor's donations, from the donor key index. */
export function donorDonationsCondition(donorKey: string) {
  return sql`${donationDonorKeySql} = ${donorKey}`;
}

/**
 * The finished calendar years (as statements count them, receipts/repository.ts statementYearSql: UTC for the site's
 * gifts, the day received for offline gifts; not after lastCompletedYear(now)) in which the donor of `donorKey` has a
 * receipt that is not void, newest first: the years whose statement exists. None for a donor without an e-mail
 * (decision 0112): no statement can be sent to her.
 */
export async function statementYearsOf(db: Database, donorKey: string, now: Date): Promise<number[]> {
  const rows = await db
    .selectDistinct({ year: statementYearSql })
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .leftJoin(offlineGifts, eq(offlineGifts.donationId, receipts.donationId))
    .where(and(donorDonationsCondition(donorKey), isNull(receipts.voidedAt), mailableDonorSql, lte(statementYearSql, lastCompletedYear(now))))
    .orderBy(desc(statementYearSql));
  return rows.map((row) => row.year);
}

/**
 * The page of the donor named `donorKey` at `now` (this year: the calendar year of `now` in `timeZone`), or undefined
 * when no charged gift has that key: the addresses and names used, the figures (figures.ts), every donation attempt of
 * the address newest first with its receipt, the plans whose first gift is theirs, the year-end statements queued to
 * the address (sent or not) newest first, the years whose statement can be sent again, and (issue #36) every e-mail
 * about the donor, the notes, the merges into the donor and the donor's audit entries. Rejects when the database fails.
 */
export async function readStaffDonor(db: Database, donorKey: string, now: Date, timeZone: string): Promise<StaffDonorDetail | undefined> {
  const year = zonedYearOf(now, timeZone);
  const ofDonor = donorDonationsCondition(donorKey);
  const [allFigures, [totals]] = await Promise.all([
    readDonorFigures(db, [donorKey], zonedYearBounds(year, timeZone)),
    db.select({ address: donorTotals.address }).from(donorTotals).where(eq(donorTotals.donorKey, donorKey)),
  ]);
  const figures = allFigures.get(donorKey);
  if (!figures || !totals) return undefined;
  const address = totals.address;

  const [identities, gifts, plans, statements, statementYears] = await Promise.all([
    readDonorIdentities(db, [donorKey]),
    db
      .select({ donation: donations, receiptNumber: receipts.number, receiptVoidedAt: receipts.voidedAt })
      .from(donations)
      .leftJoin(receipts, eq(receipts.donationId, donations.id))
      .where(ofDonor)
      .orderBy(desc(donations.createdAt), desc(donations.id)),
    db
      .select({
        plan: recurringPlans,
        chargeCount: planChargeCountSql(),
      })
      .from(recurringPlans)
      .innerJoin(donations, eq(donations.id, recurringPlans.firstDonationId))
      .where(ofDonor)
      .orderBy(desc(recurringPlans.createdAt)),
    db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'year_end_statement'), eq(sql`lower(${mailOutbox.recipient})`, address)))
      .orderBy(desc(mailOutbox.createdAt)),
    statementYearsOf(db, donorKey, now),
  ]);
  const giftIds = gifts.map((gift) => gift.donation.id);
  const planIds = [...new Set([...plans.map((row) => row.plan.id), ...gifts.flatMap((gift) => (gift.donation.recurringPlanId ? [gift.donation.recurringPlanId] : []))])];
  const [mail, notes, merges, audit] = await Promise.all([
    readDonorEmails(db, giftIds, planIds, address),
    listDonorNotes(db, donorKey),
    readDonorMerges(db, donorKey, now),
    readDonorAudit(db, donorKey, giftIds, planIds),
  ]);
  const identity = identities.get(donorKey) ?? { names: [], emails: [address] };
  return {
    donorKey,
    // A donor without an e-mail (issue #37) shows none.
    email: shownEmail(identity.emails[0] ?? address),
    emails: identity.emails.filter((email) => !isNoEmailAddress(email)),
    names: identity.names,
    figures,
    year,
    gifts: gifts.map(({ donation: d, receiptNumber, receiptVoidedAt }) => ({
      id: d.id,
      createdAt: d.createdAt.toISOString(),
      donorName: d.donorName,
      email: shownEmail(d.donorEmail),
      amountCents: d.amountCents,
      refundedCents: d.refundedCents,
      currency: d.currency,
      frequency: d.frequency,
      cause: d.cause,
      status: staffStatusOf(d),
      receiptNumber,
      receiptVoided: receiptVoidedAt !== null,
    })),
    plans: plans.map(({ plan, chargeCount }) => ({
      id: plan.id,
      status: plan.status,
      amountCents: plan.amountCents,
      frequency: plan.frequency,
      cause: plan.cause,
      nextChargeOn: plan.nextChargeOn,
      period: plan.period,
      firstDonationId: plan.firstDonationId,
      chargeCount,
    })),
    statements: statements.map((row) => ({
      id: row.id,
      year: row.statementYear ?? 0,
      recipient: row.recipient,
      state: mailStateOf(row),
      attempts: row.attempts,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
    })),
    statementYears,
    mail,
    notes,
    merges,
    audit,
  };
}

