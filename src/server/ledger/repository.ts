import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, getTableColumns, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { CardBrand } from '../../shared/card';
import type { Cause } from '../../shared/causes';
import type { Frequency } from '../../shared/frequencies';
import type { Locale } from '../../shared/i18n/locales';
import type { Tribute } from '../../shared/tribute';
import type { Database } from '../db/client';
import { donations, idempotencyKeys, type NewDonationRow } from '../db/schema';
import { columnPlaceholder, preparedStatement, type PreparedStatement } from '../db/prepared';
import { tributeColumns } from './tribute-entries';
import { liveCampaignSlugSql } from './campaign-entries';
import { failInOneStatement, succeedInOneStatement } from './outcome-statements';
import { recordDonationEvent } from '../webhooks/record';
import { recordCampaignGoalsReached } from './campaign-goal-entries';

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
  /** Null while a card confirmed in the browser is unknown (a Stripe payment intent; issue #11). */
  cardBrand: CardBrand | null;
  cardLast4: string | null;
  gateway: string;
  /** The gateway's payment intent, for a donation made through create/confirm (issue #11). */
  paymentIntentId?: string;
  isTestPayment: boolean;
  /** A gift in honour or in memory of someone, and whom to send its card to (issue #23, section 3). */
  tribute?: Tribute;
  /** The lower-cased campaign slug of the donor's link, or null (issue #23); recorded only when that campaign is live (issue #34). */
  campaign?: string | null;
  /** Cents of amountCents that cover the card fee (issue #23, section 2); 0 by default. */
  feeCoveredCents?: number;
  /** The donor's language (issue #24): its e-mails and PDF receipt are written in it; English by default. */
  locale?: Locale;
}

/** A new donation's row, but its campaign: the slug of the donor's link, recorded only while live (campaign-entries.ts). */
type PendingRow = Omit<NewDonationRow, 'campaign'> & { campaign: string | null };

/** The row of a new pending donation, with its id chosen here (so a claim can name it in the same statement). */
function pendingRow(donationId: string, donation: PendingDonation): PendingRow {
  return {
    id: donationId,
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
    paymentIntentId: donation.paymentIntentId,
    ...tributeColumns(donation.tribute),
    campaign: donation.campaign ?? null,
    feeCoveredCents: donation.feeCoveredCents,
    locale: donation.locale,
  };
}

/** An Idempotency-Key to claim: the key, the request's fingerprint, and how long to keep it (at least 24 hours). */
export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
  ttlHours: number;
}

/**
 * `("a", "b") SELECT $1::text, $2::integer` for an INSERT ... SELECT of the columns `names` of a pending row, each value a
 * placeholder of its property's name (mapped to the driver as its column is); the campaign's is its slug, recorded only
 * while live (liveCampaignSlugSql).
 */
function insertSelectOf(names: readonly (keyof PendingRow)[]): SQL {
  const columns = getTableColumns(donations);
  const identifiers = sql.join(
    names.map((name) => sql.identifier(columns[name].name)),
    sql`, `,
  );
  // NOTE: the casts are needed: a parameter in a SELECT list has no type PostgreSQL could infer from the column.
  const values = sql.join(
    names.map((name) => {
      const value = name === 'campaign' ? liveCampaignSlugSql(sql.placeholder(name)) : columnPlaceholder(name, columns[name]);
      return sql`${value}::${sql.raw(columns[name].getSQLType())}`;
    }),
    sql`, `,
  );
  return sql`(${identifiers}) SELECT ${values}`;
}

/** The claim of an Idempotency-Key (`key`, `fingerprint`, `ttlHours` and the donation's `id`), as a CTE that returns the row it wrote. */
function claimSql(): SQL {
  return sql`INSERT INTO ${idempotencyKeys} ("key", fingerprint, status, donation_id, expires_at)
    VALUES (${columnPlaceholder('key', idempotencyKeys.key)}, ${columnPlaceholder('fingerprint', idempotencyKeys.fingerprint)}, 'in_flight',
      ${columnPlaceholder('id', idempotencyKeys.donationId)},
      now() + make_interval(hours => ${sql.placeholder('ttlHours')}::integer))
    ON CONFLICT ("key") DO NOTHING RETURNING donation_id`;
}

/**
 * The prepared INSERT of pending donations whose rows name the columns `names` (a dedicated gift, a payment intent, an
 * unset fee or language name fewer or more; each set its own statement, built once per process), after the claim of a
 * key when `withClaim` (then the donation is written only if the claim was).
 */
const pendingStatements = new Map<string, PreparedStatement<{ id: string }>>();
function pendingStatement(names: readonly (keyof PendingRow)[], withClaim: boolean): PreparedStatement<{ id: string }> {
  const shape = `${withClaim ? 'claim' : 'plain'}:${names.join(',')}`;
  let statement = pendingStatements.get(shape);
  if (!statement) {
    statement = preparedStatement(`ledger_pending_donation_${pendingStatements.size + 1}`, () =>
      withClaim
        ? sql`WITH claim AS (${claimSql()}) INSERT INTO ${donations} ${insertSelectOf(names)} FROM claim RETURNING id`
        : sql`INSERT INTO ${donations} ${insertSelectOf(names)} RETURNING id`,
    );
    pendingStatements.set(shape, statement);
  }
  return statement;
}

/**
 * Writes `row` (its defined columns; the others take their defaults) in one prepared statement, after claiming `claim`
 * when given. Resolves with whether the donation was written (false only when the key was claimed already).
 */
async function insertPending(db: Database, row: PendingRow, claim?: IdempotencyClaim): Promise<boolean> {
  const names = (Object.keys(row) as Array<keyof PendingRow>).filter((name) => row[name] !== undefined);
  const written = await pendingStatement(names, claim !== undefined)(db, { ...row, ...claim });
  return written.length === 1;
}

/**
 * Writes a donation with status `pending`, before the card is charged, so that every charge attempt
 * leaves a trace even if the process stops mid-way (issues #2 and #3), with the id `donationId` (a new uuid
 * by default: the caller may choose it, to log it when the write fails). Returns the donation's id.
 * For a request without an Idempotency-Key; see {@link claimKeyAndCreatePendingDonation} for one with a key.
 */
export async function createPendingDonation(
  db: Database,
  donation: PendingDonation,
  donationId: string = randomUUID(),
): Promise<string> {
  await insertPending(db, pendingRow(donationId, donation));
  return donationId;
}

/**
 * Claims an Idempotency-Key and writes the donation `pending`, in ONE statement (issue #3: "The claim of a
 * key is atomic in the database (a unique constraint, not a read-then-write)"): the key row is inserted with
 * `ON CONFLICT (key) DO NOTHING`, and the donation only if that insert happened. Both exist or neither, even
 * if the process dies right after. The donation's id is `donationId` (a new uuid by default). Returns it, or
 * undefined when the key was already claimed (then nothing is written; see findIdempotencyKey for what the key holds).
 * A prepared statement (issue #39, decision 0115).
 */
export async function claimKeyAndCreatePendingDonation(
  db: Database,
  donation: PendingDonation,
  claim: IdempotencyClaim,
  donationId: string = randomUUID(),
): Promise<string | undefined> {
  return (await insertPending(db, pendingRow(donationId, donation), claim)) ? donationId : undefined;
}

/** Raised when a donation is not `pending` any more (or does not exist) and so cannot change status. */
export class DonationTransitionError extends Error {
  constructor(donationId: string, target: 'succeeded' | 'failed') {
    super(`Donation ${donationId} is not pending; it cannot become ${target}`);
    this.name = 'DonationTransitionError';
  }
}

/** The API answer to store with the donation's Idempotency-Key, if it has one, for replays (issue #3). */
export interface StoredAnswer {
  statusCode: number;
  body: unknown;
}

/**
 * Moves a pending donation to `succeeded` with the gateway's transaction id, brand and last4, completes
 * its Idempotency-Key with `answer` (issue #3: the outcome and the answer to replay together), and issues its receipt (number and outbox message) and,
 * for a dedicated gift with someone to notify, queues its card (issue #23), all at once (issue #12, decision 0040: never
 * a success without its receipt, nor a receipt without its success); when an active webhook endpoint wants
 * `donation.succeeded`, its event too (issue #38, decision 0106). Every path that marks a donation succeeded (the route,
 * the reconciler, a later gateway webhook) goes through here. Resolves with the receipt number. Throws
 * {@link DonationTransitionError} when the row's status is not one of `from` (pending by default; a payment intent
 * declined once may still succeed with another card, so its confirmation passes `['pending', 'failed']`, issue #11);
 * any error rolls back all of it.
 * Issue #39 (decision 0115): ONE prepared statement (outcome-statements.ts) when no endpoint wants the event and the
 * gift's campaign does not wait for its goal, both checked in that statement itself; otherwise that statement again, the
 * event and the campaign's goal (`campaign.goal_reached`, decision 0113), in one transaction.
 */
export async function markDonationSucceeded(
  db: Database,
  donationId: string,
  outcome: { transactionId: string; cardBrand: CardBrand; last4: string; isTestPayment: boolean },
  answer: StoredAnswer,
  from: readonly ('pending' | 'failed')[] = ['pending'],
): Promise<{ receiptNumber: string }> {
  const values = { donationId, ...outcome, responseStatus: answer.statusCode, responseBody: answer.body, from };
  const alone = await succeedInOneStatement(db, { ...values, unlessEvents: true });
  if (alone.receiptNumber !== null) return { receiptNumber: alone.receiptNumber };
  if (!alone.eventsWanted) throw new DonationTransitionError(donationId, 'succeeded');
  return db.transaction(async (tx) => {
    const withEvent = await succeedInOneStatement(tx, { ...values, unlessEvents: false });
    if (withEvent.receiptNumber === null) throw new DonationTransitionError(donationId, 'succeeded');
    // Issue #38: the charity's other systems hear of the gift in the same transaction (decision 0106).
    await recordDonationEvent(tx, 'donation.succeeded', donationId, {});
    // Issue #38: a gift that makes its campaign reach its goal (decision 0113).
    await recordCampaignGoalsReached(tx, [donationId]);
    return { receiptNumber: withEvent.receiptNumber };
  });
}

/**
 * Moves a pending donation to `failed` with the gateway's decline code (e.g. `insufficient_funds`, or
 * `abandoned` when the reconciler found no charge), and completes its Idempotency-Key with `answer`.
 * Throws {@link DonationTransitionError} when the row is not pending.
 */
export async function markDonationFailed(
  db: Database,
  donationId: string,
  outcome: { declineCode: string },
  answer: StoredAnswer,
): Promise<void> {
  const moved = await failInOneStatement(db, { donationId, declineCode: outcome.declineCode, responseStatus: answer.statusCode, responseBody: answer.body });
  if (!moved) throw new DonationTransitionError(donationId, 'failed');
}

/** What the reconciler needs of a pending donation to resolve it and rebuild its answer. Amount in cents. */
export interface StalePendingDonation {
  id: string;
  amountCents: number;
  donorName: string;
  /** Set for a donation made through create/confirm: the reconciler asks the gateway about the intent (issue #11). */
  paymentIntentId: string | null;
}

/**
 * Up to `limit` donations still `pending` more than `olderThanMs` milliseconds after they were written,
 * oldest first (issue #3: the reconciler's work), renewals of recurring plans left out (the billing runner's).
 * Ages are measured by the database clock.
 */
export async function listStalePendingDonations(
  db: Database,
  olderThanMs: number,
  limit: number,
): Promise<StalePendingDonation[]> {
  return db
    .select({
      id: donations.id,
      amountCents: donations.amountCents,
      donorName: donations.donorName,
      paymentIntentId: donations.paymentIntentId,
    })
    .from(donations)
    .where(
      and(
        eq(donations.status, 'pending'),
        lt(donations.createdAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
        // NOTE: a renewal's charge is settled by the billing runner, under its own key (issue #13; recurring/billing.ts).
        isNull(donations.recurringPlanId),
      ),
    )
    .orderBy(asc(donations.createdAt))
    .limit(limit);
}

/** Number of donations still `pending`, whatever their age. */
export async function countPendingDonations(db: Database): Promise<number> {
  const [row] = await db.select({ n: count().mapWith(Number) }).from(donations).where(eq(donations.status, 'pending'));
  return row?.n ?? 0;
}
