import { and, asc, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Locale } from '../../shared/i18n/locales';
import type { CardBrand } from '../../shared/card';
import type { Cause } from '../../shared/causes';
import type { Frequency } from '../../shared/frequencies';
import { NO_EMAIL_DOMAIN, type PaymentMethod } from '../../shared/offline-gifts';
import type { TributeType } from '../../shared/tribute';
import type { Database } from '../db/client';
import { donationRefunds, donations, offlineGifts, receipts } from '../db/schema';

/**
 * Receipts (issue #12) read back for the e-mail, the PDF, resends and year-end statements. They are numbered, voided
 * and their notices queued by the ledger, in the transaction of their donation's move (ledger/receipt-entries.ts;
 * decisions 0041 and 0075). Money is integer cents.
 */

/** A refund as its notice reports it: its amount and time, and what was refunded of its donation up to it (cents). */
export interface RefundNoticeDetails {
  donationId: string;
  amountCents: number;
  createdAt: Date;
  /** Cents refunded of the donation by this refund and the ones before it (not the later ones). */
  refundedCentsSoFar: number;
}

/** The refund `refundId` with the donation's refunds up to it (see RefundNoticeDetails); undefined when there is none. */
export async function findRefundNoticeDetails(db: Database, refundId: string): Promise<RefundNoticeDetails | undefined> {
  const [refund] = await db.select().from(donationRefunds).where(eq(donationRefunds.id, refundId));
  if (!refund) return undefined;
  // NOTE: compared with the row's own settled_at in SQL: a JS Date would cut PostgreSQL's microseconds. Refunds count in
  // the order they were settled, and only the succeeded ones (decision 0095: a pending refund is no refunded money).
  const settledAtOfRefund = db.select({ settledAt: donationRefunds.settledAt }).from(donationRefunds).where(eq(donationRefunds.id, refundId));
  const [soFar] = await db
    .select({ cents: sql<number>`coalesce(sum(${donationRefunds.amountCents}), 0)`.mapWith(Number) })
    .from(donationRefunds)
    .where(
      and(
        eq(donationRefunds.donationId, refund.donationId),
        eq(donationRefunds.status, 'succeeded'),
        lte(donationRefunds.settledAt, sql`(${settledAtOfRefund})`),
      ),
    );
  return { donationId: refund.donationId, amountCents: refund.amountCents, createdAt: refund.createdAt, refundedCentsSoFar: soFar?.cents ?? refund.amountCents };
}

/** Everything a receipt shows (issue #12, "Contents"). Amount in cents. */
export interface ReceiptDetails {
  number: string;
  issuedAt: Date;
  voidedAt: Date | null;
  donationId: string;
  amountCents: number;
  /** Cents refunded so far (issue #14): more than 0 after a partial refund, the receipt then stands for the rest. */
  refundedCents: number;
  currency: string;
  frequency: Frequency;
  cause: Cause;
  donorName: string;
  donorEmail: string;
  isAnonymous: boolean;
  /** Null when the gateway did not say (the card data never reached the server). */
  cardBrand: CardBrand | null;
  cardLast4: string | null;
  transactionId: string;
  isTestPayment: boolean;
  /** A gift in honour or in memory of someone (issue #23: "The donor's receipt mentions the dedication"), or null. */
  tributeType?: TributeType | null;
  tributeHonoreeName?: string | null;
  /** Cents of amountCents the donor added to cover the card fee (issue #23); 0 or absent when they did not. */
  feeCoveredCents?: number;
  /** The donor's language (issue #24): the receipt, its e-mail and its PDF are written in it; English when absent. */
  locale?: Locale;
  /** How the gift was paid (issue #37): `card` on the site (also when absent), or a method of a gift received outside it. */
  paymentMethod?: PaymentMethod;
  /** The day a gift received outside the site was received (`YYYY-MM-DD`; issue #37), its date on the receipt and statement; null for a site gift. */
  receivedOn?: string | null;
}

/**
 * The year a receipt belongs to in a year-end statement (issue #12; decision 0114): the year a gift received outside
 * the site was received (issue #37: a cheque of last December recorded in January is last year's gift, though its
 * receipt takes this year's number), else the receipt's year (UTC, as its number). Needs `offline_gifts` left-joined.
 */
export const statementYearSql = sql<number>`coalesce(extract(year from ${offlineGifts.receivedOn})::integer, ${receipts.year})`;

/** `donations.donor_email` is a real address, not the stand-in of a donor without an e-mail (decision 0112): mail may go to it. */
export const mailableDonorSql = sql`${donations.donorEmail} NOT LIKE ${`%@${NO_EMAIL_DOMAIN}`}`;

const detailColumns = {
  feeCoveredCents: donations.feeCoveredCents,
  locale: donations.locale,
  paymentMethod: donations.paymentMethod,
  receivedOn: offlineGifts.receivedOn,
  number: receipts.number,
  issuedAt: receipts.issuedAt,
  voidedAt: receipts.voidedAt,
  donationId: donations.id,
  amountCents: donations.amountCents,
  refundedCents: donations.refundedCents,
  currency: donations.currency,
  frequency: donations.frequency,
  cause: donations.cause,
  donorName: donations.donorName,
  donorEmail: donations.donorEmail,
  isAnonymous: donations.isAnonymous,
  tributeType: donations.tributeType,
  tributeHonoreeName: donations.tributeHonoreeName,
  // NOTE: known for every donation with a receipt (succeeded or after; donations_card_known_check), NULL only while pending.
  cardBrand: sql<CardBrand>`${donations.cardBrand}`,
  cardLast4: sql<string>`${donations.cardLast4}`,
  transactionId: sql<string>`${donations.gatewayTransactionId}`,
  isTestPayment: donations.isTestPayment,
};

/** The receipt of a donation, by donation id; undefined when it has none. */
export async function findReceiptByDonationId(db: Database, donationId: string): Promise<ReceiptDetails | undefined> {
  const [row] = await db
    .select(detailColumns)
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .leftJoin(offlineGifts, eq(offlineGifts.donationId, receipts.donationId))
    .where(eq(receipts.donationId, donationId));
  return row;
}

/** The receipt of a donation, by the gateway's transaction id (the capability link names it); undefined when none. */
export async function findReceiptByTransactionId(db: Database, transactionId: string): Promise<ReceiptDetails | undefined> {
  const [row] = await db
    .select(detailColumns)
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .leftJoin(offlineGifts, eq(offlineGifts.donationId, receipts.donationId))
    .where(eq(donations.gatewayTransactionId, transactionId));
  return row;
}

/**
 * Every receipt of the donations made with `email` (compared case-insensitively), oldest first; with `year`,
 * only the receipts of that statement year ({@link statementYearSql}) that are not void (a refunded gift is left out of
 * a statement; issue #12), in the order the gifts were given (a late-recorded offline gift by the day received).
 */
export async function listReceiptsByEmail(db: Database, email: string, year?: number): Promise<ReceiptDetails[]> {
  const byAddress = eq(sql`lower(${donations.donorEmail})`, email.toLowerCase());
  return db
    .select(detailColumns)
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .leftJoin(offlineGifts, eq(offlineGifts.donationId, receipts.donationId))
    .where(year === undefined ? byAddress : and(byAddress, eq(statementYearSql, year), isNull(receipts.voidedAt)))
    .orderBy(asc(statementYearSql), asc(sql`coalesce((${offlineGifts.receivedOn} + time '12:00') AT TIME ZONE 'UTC', ${receipts.issuedAt})`), asc(receipts.sequence));
}

/**
 * The distinct addresses (lower case) with at least one receipt, not void, of statement year `year`
 * ({@link statementYearSql}: UTC for the site's gifts, like receipt numbers; the day received for offline gifts): who
 * gets a year-end statement. A donor without an e-mail (decision 0112) gets none: her stand-in address is left out.
 */
export async function listStatementRecipients(db: Database, year: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ email: sql<string>`lower(${donations.donorEmail})` })
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .leftJoin(offlineGifts, eq(offlineGifts.donationId, receipts.donationId))
    .where(and(eq(statementYearSql, year), isNull(receipts.voidedAt), mailableDonorSql))
    .orderBy(sql`1`);
  return rows.map((row) => row.email);
}

/**
 * The address, as the donor typed it, of the latest donation with a receipt made with `email` (compared
 * case-insensitively), or undefined when that address has none: where a resend goes (never an address only
 * typed on /donate/receipts).
 */
export async function findDonorAddress(db: Database, email: string): Promise<string | undefined> {
  const [row] = await db
    .select({ email: donations.donorEmail })
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .where(eq(sql`lower(${donations.donorEmail})`, email.toLowerCase()))
    .orderBy(desc(receipts.issuedAt))
    .limit(1);
  return row?.email;
}
