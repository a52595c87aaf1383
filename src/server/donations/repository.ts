import { and, count, countDistinct, eq, sql, sum } from 'drizzle-orm';
import type { CardBrand } from '../../shared/card';
import { CAUSES, type Cause } from '../../shared/causes';
import { FREQUENCIES, type Frequency } from '../../shared/frequencies';
import type { Database } from '../db/client';
import { donations } from '../db/schema';

/**
 * Reads and writes donations. Money is integer cents here (DESIGN.md, "Money"); dollars appear only
 * at the API edge. Nothing in this module ever sees the full card number or the CVV.
 */

/** What is known about a donation before its card is charged. Amount in cents. */
export interface PendingDonation {
  amountCents: number;
  currency: string;
  frequency: Frequency;
  cause: Cause;
  donorName: string;
  donorEmail: string;
  donorPhone: string | null;
  address: {
    street: string | null;
    city: string | null;
    state: string | null;
    zipCode: string | null;
    country: string | null;
  };
  message: string | null;
  isAnonymous: boolean;
  cardBrand: CardBrand;
  cardLast4: string;
  gateway: string;
  isTestPayment: boolean;
}

/**
 * Writes a donation with status `pending`, before the card is charged, so that every charge attempt
 * leaves a trace even if the process stops mid-way (issue #2). Returns the new donation's id (uuid).
 */
export async function createPendingDonation(db: Database, donation: PendingDonation): Promise<string> {
  const [row] = await db
    .insert(donations)
    .values({
      status: 'pending',
      amountCents: donation.amountCents,
      currency: donation.currency,
      frequency: donation.frequency,
      cause: donation.cause,
      donorName: donation.donorName,
      donorEmail: donation.donorEmail,
      donorPhone: donation.donorPhone,
      addressStreet: donation.address.street,
      addressCity: donation.address.city,
      addressState: donation.address.state,
      addressZipCode: donation.address.zipCode,
      addressCountry: donation.address.country,
      message: donation.message,
      isAnonymous: donation.isAnonymous,
      cardBrand: donation.cardBrand,
      cardLast4: donation.cardLast4,
      gateway: donation.gateway,
      isTestPayment: donation.isTestPayment,
    })
    .returning({ id: donations.id });
  if (!row) throw new Error('Inserting a donation returned no row');
  return row.id;
}

/** Raised when a donation is not `pending` any more (or does not exist) and so cannot change status. */
export class DonationTransitionError extends Error {
  constructor(donationId: string, target: 'succeeded' | 'failed') {
    super(`Donation ${donationId} is not pending; it cannot become ${target}`);
    this.name = 'DonationTransitionError';
  }
}

/**
 * Moves a pending donation to `succeeded` with the gateway's transaction id, brand and last4.
 * Only pending → succeeded is allowed (enforced by the UPDATE's `WHERE status = 'pending'`);
 * throws {@link DonationTransitionError} when the row is not pending.
 */
export async function markDonationSucceeded(
  db: Database,
  donationId: string,
  outcome: { transactionId: string; cardBrand: CardBrand; last4: string; isTestPayment: boolean },
): Promise<void> {
  const updated = await db
    .update(donations)
    .set({
      status: 'succeeded',
      gatewayTransactionId: outcome.transactionId,
      cardBrand: outcome.cardBrand,
      cardLast4: outcome.last4,
      isTestPayment: outcome.isTestPayment,
      updatedAt: sql`now()`,
    })
    .where(and(eq(donations.id, donationId), eq(donations.status, 'pending')))
    .returning({ id: donations.id });
  if (updated.length !== 1) throw new DonationTransitionError(donationId, 'succeeded');
}

/**
 * Moves a pending donation to `failed` with the gateway's decline code (e.g. `insufficient_funds`).
 * Only pending → failed is allowed (`WHERE status = 'pending'`); throws {@link DonationTransitionError} otherwise.
 */
export async function markDonationFailed(
  db: Database,
  donationId: string,
  outcome: { declineCode: string; isTestPayment: boolean },
): Promise<void> {
  const updated = await db
    .update(donations)
    .set({
      status: 'failed',
      declineCode: outcome.declineCode,
      isTestPayment: outcome.isTestPayment,
      updatedAt: sql`now()`,
    })
    .where(and(eq(donations.id, donationId), eq(donations.status, 'pending')))
    .returning({ id: donations.id });
  if (updated.length !== 1) throw new DonationTransitionError(donationId, 'failed');
}

/** Totals of a group of donations; amount in cents. */
export interface DonationTotalsCents {
  totalCents: number;
  donationCount: number;
}

/** Totals over succeeded donations, in cents; see {@link getDonationStatsCents}. */
export interface DonationStatsCents extends DonationTotalsCents {
  donorCount: number;
  byCause: Array<{ cause: Cause } & DonationTotalsCents>;
  byFrequency: Array<{ frequency: Frequency } & DonationTotalsCents>;
}

// NOTE: SUM and COUNT return bigint (and SUM numeric for bigint input), which drivers hand back as strings;
// the amounts fit in a double exactly (below 2^53 cents), so Number() is lossless here.
const totalCents = sql<number>`coalesce(${sum(donations.amountCents)}, 0)`.mapWith(Number);
const donationCount = count().mapWith(Number);
const succeeded = eq(donations.status, 'succeeded');

/**
 * Totals over succeeded donations only (issue #2), summed in SQL in integer cents:
 * the total, the number of donations, the number of distinct donors (e-mail addresses compared
 * case-insensitively: `count(distinct lower(donor_email))`), and totals per cause and per frequency.
 * `byCause` and `byFrequency` list only the causes and frequencies that have at least one succeeded
 * donation, in the display order of the shared CAUSES and FREQUENCIES.
 */
export async function getDonationStatsCents(db: Database): Promise<DonationStatsCents> {
  // One read-only snapshot, so the three queries agree even while donations come in.
  const { totals, byCause, byFrequency } = await db.transaction(
    async (tx) => {
      const [totals] = await tx
        .select({
          totalCents,
          donationCount,
          donorCount: countDistinct(sql`lower(${donations.donorEmail})`).mapWith(Number),
        })
        .from(donations)
        .where(succeeded);
      const byCause = await tx
        .select({ cause: donations.cause, totalCents, donationCount })
        .from(donations)
        .where(succeeded)
        .groupBy(donations.cause);
      const byFrequency = await tx
        .select({ frequency: donations.frequency, totalCents, donationCount })
        .from(donations)
        .where(succeeded)
        .groupBy(donations.frequency);
      return { totals, byCause, byFrequency };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );

  return {
    totalCents: totals?.totalCents ?? 0,
    donationCount: totals?.donationCount ?? 0,
    donorCount: totals?.donorCount ?? 0,
    byCause: byCause.sort((a, b) => CAUSES.indexOf(a.cause) - CAUSES.indexOf(b.cause)),
    byFrequency: byFrequency.sort((a, b) => FREQUENCIES.indexOf(a.frequency) - FREQUENCIES.indexOf(b.frequency)),
  };
}
