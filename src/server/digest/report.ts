import { and, eq, gte, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { CAUSES, type Cause } from '../../shared/causes';
import type { Database } from '../db/client';
import { donations, mailOutbox, receipts, recurringPlans, type MailKind } from '../db/schema';
import { keptCentsSql } from '../ledger/kept-amount';
import type { IsoDate } from '../recurring/calendar';
import { zonedDayBounds } from './time-zone';
import { countDedicatedGifts, type DedicatedGiftTally } from '../tributes/digest-tally';
import { loadCampaignTallies, type CampaignTally } from './campaign-tally';

/**
 * What the staff's daily digest reports of one day in their time zone (issue #14; decision 0063), read from the
 * database when the digest is sent: counts and sums in cents, never a donor's name, address or e-mail.
 */

/** Gifts and cents of one group (a cause, or all). */
export interface GiftTally {
  count: number;
  /** Cents kept: each gift's amount less what was refunded of it. */
  amountCents: number;
}

/** Outbox messages of one kind. */
export interface MailTally {
  kind: MailKind;
  count: number;
}

/** The day's figures (see loadDailyDigest for what each one counts). */
export interface DailyDigest {
  /** The day, `YYYY-MM-DD`, in `timeZone`. */
  date: IsoDate;
  timeZone: string;
  /** Gifts received in the day and kept: all of them, and by cause (every cause, in CAUSES order, zeros included). */
  gifts: GiftTally & { byCause: ({ cause: Cause } & GiftTally)[] };
  /** Of those gifts, the ones in honour and in memory of someone (issue #23). */
  dedicatedGifts: DedicatedGiftTally;
  /** The same gifts by the campaign of the donor's link (issue #23), only campaigns with gifts, most first. */
  byCampaign: CampaignTally[];
  /** Recurring plans created in the day. */
  newPlans: number;
  /** Recurring plans cancelled in the day. */
  cancelledPlans: number;
  /** Renewal tries declined in the day, with the cents they were for. */
  failedRenewals: { count: number; amountCents: number };
  /** Messages the relay gave up on in the day, and messages still being retried when the digest is composed, by kind. */
  mail: { failed: MailTally[]; retrying: MailTally[] };
}

const countAll = () => sql<number>`count(*)`.mapWith(Number);
const sumOf = (cents: SQL | AnyPgColumn) => sql<number>`coalesce(sum(${cents}), 0)`.mapWith(Number);
/** `column` in [start, end): an instant of the day. */
const within = (column: AnyPgColumn, { start, end }: { start: Date; end: Date }) => and(gte(column, start), lt(column, end));

/**
 * The figures of `date` in `timeZone` (its instants from its 00:00 to the next day's, daylight saving included):
 * - gifts: donations whose receipt was issued in the day (the moment each succeeded; decision 0041) and that are still
 *   `succeeded`, at the amount kept (amount less partial refunds); a gift refunded in full or disputed since is left out;
 *   of them, the dedicated ones by kind (issue #23; tributes/digest-tally.ts);
 * - new plans: `recurring_plans.created_at` in the day; cancelled plans: status `cancelled` and `updated_at` in the day
 *   (nothing writes a cancelled plan again, so its `updated_at` is when it was cancelled);
 * - failed renewals: renewal donations (period 1 and later) `failed` with `updated_at` (when the decline was recorded)
 *   in the day, one per try;
 * - mail: `failed` messages whose last attempt was due in the day (`next_attempt_at`: the relay tries a message as soon
 *   as it is due), and `pending` ones with an error, still being retried, whenever queued.
 * Throws a RangeError for a malformed date or an unknown zone; rejects when the database fails.
 */
export async function loadDailyDigest(db: Database, date: IsoDate, timeZone: string): Promise<DailyDigest> {
  const day = zonedDayBounds(date, timeZone);
  const [byCause, [newPlans], [cancelledPlans], [failedRenewals], failedMail, retryingMail] = await Promise.all([
    db
      .select({ cause: donations.cause, count: countAll(), amountCents: sumOf(keptCentsSql) })
      .from(receipts)
      .innerJoin(donations, eq(donations.id, receipts.donationId))
      .where(and(within(receipts.issuedAt, day), eq(donations.status, 'succeeded')))
      .groupBy(donations.cause),
    db.select({ count: countAll() }).from(recurringPlans).where(within(recurringPlans.createdAt, day)),
    db
      .select({ count: countAll() })
      .from(recurringPlans)
      .where(and(eq(recurringPlans.status, 'cancelled'), within(recurringPlans.updatedAt, day))),
    db
      .select({ count: countAll(), amountCents: sumOf(donations.amountCents) })
      .from(donations)
      .where(and(eq(donations.status, 'failed'), gte(donations.recurringPeriod, 1), within(donations.updatedAt, day))),
    mailByKind(db, and(eq(mailOutbox.status, 'failed'), within(mailOutbox.nextAttemptAt, day))),
    mailByKind(db, and(eq(mailOutbox.status, 'pending'), isNotNull(mailOutbox.lastError))),
  ]);
  const causes = CAUSES.map((cause) => {
    const row = byCause.find((tally) => tally.cause === cause);
    return { cause, count: row?.count ?? 0, amountCents: row?.amountCents ?? 0 };
  });
  return {
    date,
    timeZone,
    gifts: {
      count: causes.reduce((total, tally) => total + tally.count, 0),
      amountCents: causes.reduce((total, tally) => total + tally.amountCents, 0),
      byCause: causes,
    },
    dedicatedGifts: await countDedicatedGifts(db, day),
    byCampaign: await loadCampaignTallies(db, day),
    newPlans: newPlans?.count ?? 0,
    cancelledPlans: cancelledPlans?.count ?? 0,
    failedRenewals: { count: failedRenewals?.count ?? 0, amountCents: failedRenewals?.amountCents ?? 0 },
    mail: { failed: failedMail, retrying: retryingMail },
  };
}

/** The outbox messages `where` selects, counted by kind, in kind order. */
function mailByKind(db: Database, where: SQL | undefined): Promise<MailTally[]> {
  return db
    .select({ kind: mailOutbox.kind, count: countAll() })
    .from(mailOutbox)
    .where(where)
    .groupBy(mailOutbox.kind)
    .orderBy(mailOutbox.kind);
}
