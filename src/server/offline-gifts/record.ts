import { createHash, randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { NO_EMAIL_DOMAIN, type OfflineGiftRequest, type OfflineGiftSource } from '../../shared/offline-gifts';
import { canonicalJson } from '../idempotency/idempotency-key';
import type { Database } from '../db/client';
import { campaigns, donations, offlineGifts, receipts } from '../db/schema';
import { recordCampaignGoalsReached } from '../ledger/campaign-goal-entries';
import { issueReceipts } from '../ledger/receipt-entries';
import { tributeColumns } from '../ledger/tribute-entries';
import { recordDonationEvent } from '../webhooks/record';

/**
 * The one way a gift received outside the site is recorded (issue #37; decision 0112), whoever asks: a staff member on
 * the page, an operator's script (POST /api/admin/offline-gifts) or a CSV import. Each gift becomes a donation like the
 * site's (written `pending`, then `succeeded` in the same transaction, as the database's life-cycle triggers require),
 * with its method, its details in offline_gifts and the next receipt number. Amounts are integer cents.
 */

/** A gift to record: the validated request, the key that makes it once-only, and the fingerprint of what it says. */
export interface OfflineGiftEntry {
  request: OfflineGiftRequest;
  /** `page:<Idempotency-Key>`, `admin:<Idempotency-Key>` or `csv:<row hash>:<occurrence>` (offline_gifts.entry_key). */
  entryKey: string;
  fingerprint: string;
}

/** A gift recorded: its donation, its receipt number and whether its receipt was queued to the donor. */
export interface RecordedOfflineGift {
  donationId: string;
  receiptNumber: string;
  receiptEmailed: boolean;
}

/**
 * The address that stands for a donor without an e-mail (decision 0112): `donor-<first 32 hex digits of the SHA-256 of
 * her name, trimmed and lower-cased>@no-email.invalid`, so her name identifies her (the CSV's rule: "e-mail or name
 * identifies the donor"), her gifts group under one donor key, and nothing can ever be sent to it (RFC 2606 `.invalid`).
 */
export function noEmailAddressOf(name: string): string {
  const digest = createHash('sha256').update(name.normalize('NFC').trim().toLowerCase(), 'utf8').digest('hex');
  return `donor-${digest.slice(0, 32)}@${NO_EMAIL_DOMAIN}`;
}

/** The address a gift is recorded under: the donor's e-mail, or the stand-in of {@link noEmailAddressOf}. */
export function donorAddressOf(request: OfflineGiftRequest): string {
  return request.donor.email ?? noEmailAddressOf(request.donor.name);
}

/**
 * The fingerprint of a request (SHA-256 of its canonical JSON, `confirmDuplicate` left out: confirming is the same
 * gift). A bare hash is enough here: no card data is ever in an offline gift's body (unlike the donor API's; decision 0012).
 */
export function fingerprintOfflineGift(request: OfflineGiftRequest): string {
  const { confirmDuplicate: _confirmed, ...gift } = request;
  return createHash('sha256').update(canonicalJson(gift)).digest('hex');
}

/** The gifts already recorded under any of `entryKeys`: by key, their fingerprint, donation, receipt and e-mail. */
export async function findRecordedEntries(
  db: Database,
  entryKeys: readonly string[],
): Promise<Map<string, { fingerprint: string } & RecordedOfflineGift>> {
  const found = new Map<string, { fingerprint: string } & RecordedOfflineGift>();
  for (let start = 0; start < entryKeys.length; start += 1000) {
    const rows = await db
      .select({
        entryKey: offlineGifts.entryKey,
        fingerprint: offlineGifts.fingerprint,
        donationId: offlineGifts.donationId,
        receiptNumber: receipts.number,
        receiptEmailed: offlineGifts.receiptEmailed,
      })
      .from(offlineGifts)
      .innerJoin(receipts, eq(receipts.donationId, offlineGifts.donationId))
      .where(inArray(offlineGifts.entryKey, entryKeys.slice(start, start + 1000)));
    for (const row of rows) found.set(row.entryKey, row);
  }
  return found;
}

/** The campaign slugs among `slugs` that name no campaign (a gift may count toward any campaign staff made, live or not). */
export async function unknownCampaigns(db: Database, slugs: readonly string[]): Promise<Set<string>> {
  const wanted = [...new Set(slugs)];
  if (wanted.length === 0) return new Set();
  const rows = await db.select({ slug: campaigns.slug }).from(campaigns).where(inArray(campaigns.slug, wanted));
  const known = new Set(rows.map((row) => row.slug));
  return new Set(wanted.filter((slug) => !known.has(slug)));
}

/**
 * A gift recorded before, not voided, that `request` likely repeats (issue #37: "same donor, amount, date and
 * reference"): its donation id and receipt number, or undefined. The donor is compared by address, without case.
 */
export async function findLikelyDuplicate(db: Database, request: OfflineGiftRequest): Promise<{ donationId: string; receiptNumber: string | null } | undefined> {
  const [row] = await db
    .select({ donationId: offlineGifts.donationId, receiptNumber: receipts.number })
    .from(offlineGifts)
    .innerJoin(donations, eq(donations.id, offlineGifts.donationId))
    .leftJoin(receipts, eq(receipts.donationId, offlineGifts.donationId))
    .where(
      and(
        isNull(offlineGifts.voidedAt),
        eq(offlineGifts.receivedOn, request.receivedOn),
        eq(donations.amountCents, request.amountCents),
        sql`lower(${donations.donorEmail}) = lower(${donorAddressOf(request)})`,
        sql`coalesce(lower(${offlineGifts.reference}), '') = ${(request.reference ?? '').toLowerCase()}`,
      ),
    )
    .limit(1);
  return row;
}

/** Rows per statement: a JSON document of a few MB at most, one parameter, whatever the file's size. */
const ROWS_PER_STATEMENT = 5000;

/** The donation of an offline gift as one JSON object, keyed by its column's name (json_to_recordset reads it). */
function donationJsonOf(id: string, request: OfflineGiftRequest): Record<string, unknown> {
  const address = request.donor.address ?? {};
  const orNull = (value: string | undefined) => (value === undefined || value === '' ? null : value);
  const tribute = tributeColumns(request.tribute);
  return {
    id,
    amount_cents: request.amountCents,
    cause: request.cause,
    donor_name: request.donor.name,
    donor_email: donorAddressOf(request),
    address_street: orNull(address.street),
    address_city: orNull(address.city),
    address_state: orNull(address.state),
    address_zip_code: orNull(address.zipCode),
    address_country: orNull(address.country),
    payment_method: request.method,
    campaign: request.campaign ?? null,
    tribute_type: tribute.tributeType ?? null,
    tribute_honoree_name: tribute.tributeHonoreeName ?? null,
    tribute_notify_name: tribute.tributeNotifyName ?? null,
    tribute_notify_email: tribute.tributeNotifyEmail ?? null,
    tribute_notify_message: tribute.tributeNotifyMessage ?? null,
    received_on: request.receivedOn,
  };
}

/**
 * Records `entries` in `tx` (the caller's transaction, which also writes the audit entry: all or nothing), in their
 * order: the donations (one statement per table for up to 5,000 rows), moved to `succeeded` with `offline_<id>` as their transaction id
 * (what the receipt links sign), their offline_gifts rows, and their receipts numbered in one sequence with the site's
 * (issueReceipts), each e-mailed when `sendReceipt` and the donor has an address. The caller has checked the entries
 * (schema, dates against today in TZ, campaigns) and left out those already recorded; an entry key recorded meanwhile
 * fails the unique constraint and rolls everything back. Returns what was recorded, in order.
 */
export async function recordOfflineGifts(
  tx: Database,
  entries: readonly OfflineGiftEntry[],
  context: { source: OfflineGiftSource; timeZone: string },
): Promise<RecordedOfflineGift[]> {
  if (entries.length === 0) return [];
  const gifts = entries.map((entry) => ({ ...entry, id: randomUUID(), emailed: entry.request.sendReceipt && entry.request.donor.email !== undefined }));
  // One statement per table for the whole batch, its rows in ONE json parameter (json_to_recordset): building a
  // multi-row VALUES of ~22 parameters a row cost about 1 s of the query builder's time per 1,000 rows (measured,
  // scripts/bench-offline-import.ts), more than the database's work. Dated at noon of the day received in the staff's
  // time zone, or now if that is later (a gift received this morning), so every figure files it under that day.
  for (let start = 0; start < gifts.length; start += ROWS_PER_STATEMENT) {
    const chunk = gifts.slice(start, start + ROWS_PER_STATEMENT);
    const donationsJson = JSON.stringify(chunk.map((gift) => donationJsonOf(gift.id, gift.request)));
    await tx.execute(sql`
      INSERT INTO donations (id, status, amount_cents, currency, frequency, cause, donor_name, donor_email, donor_phone,
        address_street, address_city, address_state, address_zip_code, address_country, message, is_anonymous, gateway,
        is_test_payment, payment_method, campaign, tribute_type, tribute_honoree_name, tribute_notify_name,
        tribute_notify_email, tribute_notify_message, created_at, updated_at)
      SELECT g.id, 'pending', g.amount_cents, 'USD', 'one-time', g.cause, g.donor_name, g.donor_email, NULL,
        g.address_street, g.address_city, g.address_state, g.address_zip_code, g.address_country, NULL, false, 'offline',
        false, g.payment_method, g.campaign, g.tribute_type, g.tribute_honoree_name, g.tribute_notify_name,
        g.tribute_notify_email, g.tribute_notify_message,
        least(now(), (g.received_on + time '12:00') AT TIME ZONE ${context.timeZone}), now()
      FROM json_to_recordset(${donationsJson}::json) AS g(id uuid, amount_cents integer, cause text, donor_name text,
        donor_email text, address_street text, address_city text, address_state text, address_zip_code text,
        address_country text, payment_method text, campaign text, tribute_type text, tribute_honoree_name text,
        tribute_notify_name text, tribute_notify_email text, tribute_notify_message text, received_on date)`);
    const offlineJson = JSON.stringify(
      chunk.map((gift) => ({
        donation_id: gift.id,
        reference: gift.request.reference || null,
        received_on: gift.request.receivedOn,
        note: gift.request.note || null,
        entry_key: gift.entryKey,
        fingerprint: gift.fingerprint,
        receipt_emailed: gift.emailed,
      })),
    );
    await tx.execute(sql`
      INSERT INTO offline_gifts (donation_id, reference, received_on, note, entry_key, fingerprint, source, receipt_emailed)
      SELECT o.donation_id, o.reference, o.received_on, o.note, o.entry_key, o.fingerprint, ${context.source}, o.receipt_emailed
      FROM json_to_recordset(${offlineJson}::json) AS o(donation_id uuid, reference text, received_on date, note text,
        entry_key text, fingerprint text, receipt_emailed boolean)`);
    await tx
      .update(donations)
      .set({ status: 'succeeded', gatewayTransactionId: sql`'offline_' || ${donations.id}::text`, updatedAt: sql`now()` })
      .where(sql`${donations.id} = ANY (${`{${chunk.map((gift) => gift.id).join(',')}}`}::uuid[])`);
  }
  const numbers = await issueReceipts(
    tx,
    gifts.map((gift) => ({ donationId: gift.id, mailTo: gift.emailed ? (gift.request.donor.email ?? null) : null })),
  );
  // Issue #38: the `donation.succeeded` event of each gift, in this transaction, as a site gift's success records it.
  for (const gift of gifts) await recordDonationEvent(tx, 'donation.succeeded', gift.id, {});
  await recordCampaignGoalsReached(tx, gifts.map((gift) => gift.id));
  return gifts.map((gift, index) => ({ donationId: gift.id, receiptNumber: numbers[index] ?? '', receiptEmailed: gift.emailed }));
}
