import { sql, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn,
  type PgColumn,
  bigint,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { CARD_BRANDS } from '../../shared/card';
import { CAUSES } from '../../shared/causes';
import { FREQUENCIES } from '../../shared/frequencies';
import { LOCALES } from '../../shared/i18n/locales';
import { DONOR_NOTE_MAX_LENGTH } from '../../shared/staff/donors-api';
import { OFFLINE_GIFT_SOURCES, PAYMENT_METHODS } from '../../shared/offline-gifts';
import { AUDIT_ACTOR_TYPES } from '../../shared/staff/identity-api';
import { STAFF_ROLES } from '../../shared/staff/roles';
import { TRIBUTE_TYPES } from '../../shared/tribute';

/**
 * Database schema (Drizzle, PostgreSQL). The SQL migrations in `drizzle/` are generated from this file
 * with `npx drizzle-kit generate`; after changing it, generate a new migration rather than editing one.
 * NOTE: the SQL must run on PostgreSQL 15 and on the embedded PostgreSQL 18 (DESIGN.md): nothing newer than 15.
 */

/**
 * Life cycle of a donation: written `pending` before the card is charged, then moved to `succeeded` or
 * `failed` (issues #2 and #3). A row left `pending` means the charge's outcome is unknown (the process stopped
 * or the gateway errored) and the reconciler resolves it with the gateway. Since issue #11 a donation can also
 * be `refunded` or `disputed` (leaving the totals), a payment intent declined once can still succeed with
 * another card (`failed` -> `succeeded`), and a dispute the charity won makes it `succeeded` again.
 * NOTE: the database enforces the life cycle too: a trigger (migration 0005, after 0002) refuses every other
 * status change, and another (migration 0003) any row inserted with another status than pending.
 */
export const DONATION_STATUSES = ['pending', 'succeeded', 'failed', 'refunded', 'disputed'] as const;
/** One of {@link DONATION_STATUSES}. */
export type DonationStatus = (typeof DONATION_STATUSES)[number];

/** `'a', 'b'` for a CHECK constraint's IN list; only ever called with the constant lists above. */
const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '));

/**
 * The CHECK of a `locale` column (issue #24; decision 0094): a BCP 47 language tag's shape (`en`, `es`, `pt-BR`), not
 * the list of LOCALES, so a third language is a catalogue and a line in LOCALES with no migration. The API admits only
 * LOCALES (LocaleSchema); the database refuses what could never be a language.
 */
const isLanguageTag = (column: AnyPgColumn) => sql`${column} ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$'`;

/**
 * The text the staff's search looks a donor up in (issue #36, part 2: any part of a name or e-mail, case and accents
 * ignored, a typo tolerated): the name and e-mail address, lower-cased and without accents by the database function
 * `staff_search_text` (migration of issue #36: `lower(unaccent(...))`, declared IMMUTABLE so it can be indexed), held by
 * a GIN trigram index (`pg_trgm`) that answers both `LIKE '%konkwo%'` and the typo-tolerant `'margret' <<% text`. The
 * index (donations_donor_trigram_idx) and the query (staff/shared/search.ts) both build it here, so their expressions
 * are the same and the planner uses the index.
 */
export function donorSearchTextSql(donorName: PgColumn | SQL, donorEmail: PgColumn | SQL) {
  return sql`staff_search_text(${donorName} || ' ' || ${donorEmail})`;
}

/**
 * One row per donation attempt (issue #2, "What is stored per donation"). Money is integer cents.
 * NOTE: there is no column for the full card number (PAN) or the CVV, and there must never be one
 * (PCI DSS 3.2 and 3.4): only the brand and the last 4 digits are kept.
 */
export const donations = pgTable(
  'donations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    status: text('status', { enum: DONATION_STATUSES }).notNull().default('pending'),
    amountCents: integer('amount_cents').notNull(),
    currency: char('currency', { length: 3 }).notNull().default('USD'),
    frequency: text('frequency', { enum: FREQUENCIES }).notNull(),
    cause: text('cause', { enum: CAUSES }).notNull(),
    donorName: text('donor_name').notNull(),
    donorEmail: text('donor_email').notNull(),
    donorPhone: text('donor_phone'),
    addressStreet: text('address_street'),
    addressCity: text('address_city'),
    addressState: text('address_state'),
    addressZipCode: text('address_zip_code'),
    addressCountry: text('address_country'),
    message: text('message'),
    isAnonymous: boolean('is_anonymous').notNull().default(false),
    /**
     * A gift in honour or in memory of someone (issue #23, section 3; decision 0090): the kind and the honoree's name,
     * and whom the card goes to (name, address, optional message). NULL for a gift not dedicated; a renewal of a
     * recurring plan is never dedicated (the first gift is).
     */
    tributeType: text('tribute_type', { enum: TRIBUTE_TYPES }),
    tributeHonoreeName: text('tribute_honoree_name'),
    tributeNotifyName: text('tribute_notify_name'),
    tributeNotifyEmail: text('tribute_notify_email'),
    tributeNotifyMessage: text('tribute_notify_message'),
    // NOTE: unknown (NULL) while a payment intent confirmed in the browser is pending (Stripe mode, issue #11);
    // known once it succeeded (donations_card_known_check). A refund or dispute event may come first and leave it unknown.
    cardBrand: text('card_brand', { enum: CARD_BRANDS }),
    cardLast4: char('card_last4', { length: 4 }),
    gateway: text('gateway').notNull(),
    gatewayTransactionId: text('gateway_transaction_id').unique(),
    /** The gateway's payment intent (`pi_...`) of a donation made through create/confirm (issue #11); one donation per intent. */
    paymentIntentId: text('payment_intent_id').unique(),
    /** Stripe's dispute status (`needs_response`, `won`, `lost`...) once the donor disputed the charge (issue #11). */
    disputeStatus: text('dispute_status'),
    /**
     * Cents refunded so far (issue #14: an operator's refund, all or part; migration 0008). A full refund also moves
     * the status to `refunded`; a partial one leaves the gift `succeeded` for `amount_cents - refunded_cents`.
     */
    refundedCents: integer('refunded_cents').notNull().default(0),
    declineCode: text('decline_code'),
    isTestPayment: boolean('is_test_payment').notNull(),
    /**
     * The recurring plan this donation is a charge of (issue #13): its first gift (period 0, set when the plan is
     * created) or a renewal the billing runner made (period 1, 2...). `recurring_attempt` counts the tries of one
     * period (1, then the dunning retries). NULL for one-time gifts.
     */
    recurringPlanId: uuid('recurring_plan_id').references((): AnyPgColumn => recurringPlans.id),
    recurringPeriod: integer('recurring_period'),
    recurringAttempt: integer('recurring_attempt'),
    /**
     * The saved payment method a renewal try charges (issue #13; migration 0009), written with the try: a try sent
     * again after a lost answer goes to the gateway with the same card under the same key, whatever card the plan has
     * since. NULL for a gift that is not a renewal.
     */
    renewalPaymentMethodId: text('renewal_payment_method_id'),
    /**
     * The campaign of the link the donor came by (issue #23, section 1), when it was live as the gift was written (issue
     * #34; decision 0101): a `campaigns.slug`; NULL for none, unknown, malformed, draft, not yet open or ended.
     */
    campaign: text('campaign'),
    /** Cents of `amount_cents` the donor added to cover the card fee (issue #23, section 2); the gift is the rest. */
    feeCoveredCents: integer('fee_covered_cents').notNull().default(0),
    /** The donor's language (issue #24; decision 0094): the submission's, or a renewal's plan's. Its e-mails and PDF are in it. */
    locale: text('locale', { enum: LOCALES }).notNull().default('en'),
    /**
     * How the money came (issue #37; decision 0112): `card` for every gift made on the site, or the method of a gift
     * received outside it and recorded by staff (`cheque`, `cash`, `bank_transfer`, `other`; its details in offline_gifts).
     */
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }).notNull().default('card'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('donations_locale_check', isLanguageTag(table.locale)),
    // Issue #13: each try of a (plan, period) is one row, and at most one row of a (plan, period) is not failed,
    // so a period is charged at most once, whatever runs at the same time (only a failed try took no money).
    unique('donations_recurring_attempt_unique').on(table.recurringPlanId, table.recurringPeriod, table.recurringAttempt),
    uniqueIndex('donations_recurring_period_charged_unique')
      .on(table.recurringPlanId, table.recurringPeriod)
      .where(sql`${table.status} <> 'failed'`),
    check(
      'donations_recurring_check',
      sql`(${table.recurringPlanId} IS NULL) = (${table.recurringPeriod} IS NULL) AND (${table.recurringPlanId} IS NULL) = (${table.recurringAttempt} IS NULL) AND coalesce(${table.recurringPeriod} >= 0 AND ${table.recurringAttempt} >= 1, true)`,
    ),
    check('donations_status_check', sql`${table.status} IN (${sqlList(DONATION_STATUSES)})`),
    check('donations_amount_cents_check', sql`${table.amountCents} > 0`),
    check('donations_refunded_cents_check', sql`${table.refundedCents} BETWEEN 0 AND ${table.amountCents}`),
    check('donations_fee_covered_cents_check', sql`${table.feeCoveredCents} >= 0 AND ${table.feeCoveredCents} < ${table.amountCents}`),
    check('donations_campaign_check', sql`${table.campaign} ~ '^[a-z0-9-]{1,64}$'`),
    check('donations_frequency_check', sql`${table.frequency} IN (${sqlList(FREQUENCIES)})`),
    check('donations_cause_check', sql`${table.cause} IN (${sqlList(CAUSES)})`),
    // A dedication has its kind and honoree together; someone to notify only with a dedication, name and address together.
    check(
      'donations_tribute_check',
      sql`${table.tributeType} IN (${sqlList(TRIBUTE_TYPES)}) AND (${table.tributeType} IS NULL) = (${table.tributeHonoreeName} IS NULL) AND (${table.tributeNotifyName} IS NULL) = (${table.tributeNotifyEmail} IS NULL) AND (${table.tributeNotifyEmail} IS NULL OR ${table.tributeType} IS NOT NULL) AND (${table.tributeNotifyMessage} IS NULL OR ${table.tributeNotifyEmail} IS NOT NULL)`,
    ),
    check('donations_card_brand_check', sql`${table.cardBrand} IN (${sqlList(CARD_BRANDS)})`),
    check('donations_card_last4_check', sql`${table.cardLast4} ~ '^[0-9]{4}$'`),
    check('donations_payment_method_check', sql`${table.paymentMethod} IN (${sqlList(PAYMENT_METHODS)})`),
    // A gift received outside the site (issue #37) has no card.
    check(
      'donations_card_known_check',
      sql`${table.status} <> 'succeeded' OR ${table.paymentMethod} <> 'card' OR (${table.cardBrand} IS NOT NULL AND ${table.cardLast4} IS NOT NULL)`,
    ),
    // A succeeded donation always has the gateway's transaction id; a failed one its decline code.
    check(
      'donations_outcome_check',
      sql`(${table.status} <> 'succeeded' OR ${table.gatewayTransactionId} IS NOT NULL) AND (${table.status} <> 'failed' OR ${table.declineCode} IS NOT NULL)`,
    ),
    index('donations_status_idx').on(table.status),
    // Resend and year-end statements find a donor's donations by address, compared case-insensitively (issue #12).
    index('donations_donor_email_lower_idx').on(sql`lower(${table.donorEmail})`),
    // The staff's list (issue #21; 100,000 donations within 150 ms; decision 0085): pages by date or amount (their ids
    // read from the index alone), a status and a date range, whose last two columns also let the totals of any set of
    // statuses and dates be summed from the index alone, and any part of a donor's name or e-mail, accents ignored, a
    // typo tolerated (issue #36; see donorSearchTextSql).
    index('donations_created_at_id_idx').on(table.createdAt, table.id),
    index('donations_amount_created_at_id_idx').on(table.amountCents, table.createdAt, table.id),
    index('donations_status_created_at_amounts_idx').on(table.status, table.createdAt, table.amountCents, table.refundedCents),
    index('donations_donor_trigram_idx').using('gin', sql`${donorSearchTextSql(table.donorName, table.donorEmail)} gin_trgm_ops`),
    // The dashboard's new and returning donors (issue #22; decision 0074): the gifts charged (succeeded, refunded,
    // disputed) in address order, read from the index alone (donor_email too: PostgreSQL reads lower(donor_email) from an
    // index only when the column itself is in it), grouped by address in one pass.
    // A campaign's public figures (issue #34; decision 0101): its succeeded gifts' net amounts and distinct addresses,
    // summed from the index alone (donor_email too, as above), so even 100,000 gifts never read the table.
    index('donations_campaign_figures_idx')
      .on(table.campaign, sql`lower(${table.donorEmail})`, table.amountCents, table.refundedCents, table.feeCoveredCents, table.donorEmail)
      .where(sql`${table.status} = 'succeeded' AND ${table.campaign} IS NOT NULL`),
    index('donations_donor_email_charged_idx')
      .on(sql`lower(${table.donorEmail})`, table.createdAt, table.status, table.amountCents, table.refundedCents, table.donorEmail)
      .where(sql`${table.status} IN ('succeeded', 'refunded', 'disputed')`),
  ],
);

/** A donation row as Drizzle reads it. */
export type DonationRow = typeof donations.$inferSelect;
/** A donation row as Drizzle inserts it. */
export type NewDonationRow = typeof donations.$inferInsert;

/**
 * The details of a gift received outside the site (issue #37; decision 0112), one row per such donation, written in the
 * transaction that records it: its reference (cheque number, bank reference), the day it was received (the donation's
 * `created_at` is that day), the staff's note, whether its receipt was e-mailed, and the void of a bounced cheque or a
 * mistyped amount (when and why; the donation then counts nothing). `entry_key` makes recording idempotent: `page:` or
 * `admin:` and the request's Idempotency-Key, or `csv:` and the hash of an imported row with its occurrence in the file,
 * so a key or a file sent twice records once; `fingerprint` tells a retry from a key reused for another gift.
 */
export const offlineGifts = pgTable(
  'offline_gifts',
  {
    donationId: uuid('donation_id')
      .primaryKey()
      .references(() => donations.id),
    reference: text('reference'),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    note: text('note'),
    entryKey: text('entry_key').notNull().unique(),
    fingerprint: text('fingerprint').notNull(),
    /** `staff`, `operator` or `import`: who recorded it (the audit log names the person). */
    source: text('source', { enum: OFFLINE_GIFT_SOURCES }).notNull(),
    receiptEmailed: boolean('receipt_emailed').notNull(),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidReason: text('void_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('offline_gifts_source_check', sql`${table.source} IN (${sqlList(OFFLINE_GIFT_SOURCES)})`),
    check('offline_gifts_void_check', sql`(${table.voidedAt} IS NULL) = (${table.voidReason} IS NULL)`),
    // The likely-duplicate check: the same amount on the same day, then compared by donor and reference.
    index('offline_gifts_received_on_idx').on(table.receivedOn),
  ],
);

/** An offline gift's row as Drizzle reads it. */
export type OfflineGiftRow = typeof offlineGifts.$inferSelect;

/**
 * State of an idempotency key (issue #3): `in_flight` from the claim until the donation's outcome is
 * recorded, then `completed` with the answer to replay.
 */
export const IDEMPOTENCY_KEY_STATUSES = ['in_flight', 'completed'] as const;
/** One of {@link IDEMPOTENCY_KEY_STATUSES}. */
export type IdempotencyKeyStatus = (typeof IDEMPOTENCY_KEY_STATUSES)[number];

/** Longest accepted Idempotency-Key, in characters (Stripe: "Idempotency keys are up to 255 characters long"). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * One row per `Idempotency-Key` a client sent with `POST /api/process-donation` (issue #3, after Stripe's
 * idempotent requests and the IETF draft "The Idempotency-Key HTTP Header Field"). The primary key is the
 * claim: a second request with the same key cannot insert, whatever the timing.
 * NOTE: `fingerprint` is an HMAC-SHA256 of the validated body under a server secret, so the card number
 * inside that body cannot be recovered or brute-forced from it; `response_body` is the API's answer, which
 * never holds card data.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    key: text('key').primaryKey(),
    fingerprint: text('fingerprint').notNull(),
    status: text('status', { enum: IDEMPOTENCY_KEY_STATUSES }).notNull().default('in_flight'),
    donationId: uuid('donation_id')
      .notNull()
      .unique()
      .references(() => donations.id),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    check('idempotency_keys_key_check', sql`char_length(${table.key}) BETWEEN 1 AND ${sql.raw(String(IDEMPOTENCY_KEY_MAX_LENGTH))}`),
    check('idempotency_keys_status_check', sql`${table.status} IN (${sqlList(IDEMPOTENCY_KEY_STATUSES)})`),
    // A completed key always has the answer to replay.
    check(
      'idempotency_keys_completed_check',
      sql`${table.status} <> 'completed' OR (${table.responseStatus} IS NOT NULL AND ${table.responseBody} IS NOT NULL)`,
    ),
    // Keys are kept at least 24 hours (issue #3; Stripe prunes them "after they're at least 24 hours old").
    check('idempotency_keys_expires_at_check', sql`${table.expiresAt} >= ${table.createdAt} + interval '24 hours'`),
    index('idempotency_keys_expires_at_idx').on(table.expiresAt),
  ],
);

/** An idempotency key row as Drizzle reads it. */
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/**
 * Receipt numbers in use, one row per calendar year (issue #12): `last_number` is the last sequence number
 * handed out that year. The number of a new receipt is taken by an UPSERT of this row in the transaction that
 * marks the donation succeeded, so numbers are sequential per year, never reused, and without gaps: a rolled
 * back transaction gives its number back with the rest of its writes (decision 0041).
 */
export const receiptCounters = pgTable(
  'receipt_counters',
  {
    year: integer('year').primaryKey(),
    lastNumber: integer('last_number').notNull(),
  },
  (table) => [check('receipt_counters_last_number_check', sql`${table.lastNumber} >= 1`)],
);

/**
 * One receipt per succeeded donation (issue #12), written in the same transaction that marks it succeeded.
 * `number` is `<year>-<sequence, 6 digits or more>` (`2026-000123`). A refund voids a receipt (`voided_at`)
 * and sends a notice; the receipt itself is never edited nor deleted.
 */
export const receipts = pgTable(
  'receipts',
  {
    number: text('number').primaryKey(),
    donationId: uuid('donation_id')
      .notNull()
      .unique()
      .references(() => donations.id),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (table) => [
    unique('receipts_year_sequence_unique').on(table.year, table.sequence),
    check('receipts_sequence_check', sql`${table.sequence} >= 1`),
    check('receipts_number_check', sql`${table.number} ~ '^[0-9]{4}-[0-9]{6,}$'`),
    /** Any part of a receipt number (issue #36, part 2: `000123` finds `2026-000123`), from a trigram index. */
    index('receipts_number_trigram_idx').using('gin', sql`${table.number} gin_trgm_ops`),
  ],
);

/** A receipt row as Drizzle reads it. */
export type ReceiptRow = typeof receipts.$inferSelect;

/**
 * Kinds of e-mail the outbox sends (issue #12): a donation's receipt, the notice that voids it after a refund,
 * the list of receipt links asked for on /donate/receipts, and a donor's year-end statement. Issue #13 adds the
 * mail of recurring plans ({@link RECURRING_MAIL_KINDS}); issue #21 a receipt sent again by staff (`receipt_resend`, as
 * many as staff ask for, each its own row and Message-ID, to the donation's address at that time).
 */
export const RECEIPT_MAIL_KINDS = ['receipt', 'receipt_void', 'receipt_links', 'year_end_statement', 'receipt_resend'] as const;

/**
 * E-mail about a recurring plan (issue #13), each naming its plan: a renewal declined (the first failure of a
 * period), the plan paused after its last retry failed, a change the donor made (confirmed by e-mail), the
 * manage links asked for on /donate/manage, a renewal that needs the donor to authenticate (Stripe mode), and the
 * reminder 30 days before the saved card expires (migration 0007).
 */
export const RECURRING_MAIL_KINDS = ['renewal_failed', 'plan_paused', 'plan_changed', 'manage_links', 'renewal_needs_authentication', 'card_expiring'] as const;
/** One of {@link RECURRING_MAIL_KINDS}. */
export type RecurringMailKind = (typeof RECURRING_MAIL_KINDS)[number];

/** The {@link RECURRING_MAIL_KINDS} about one plan; `manage_links` lists every plan of an address. */
const PLAN_MAIL_KINDS = RECURRING_MAIL_KINDS.filter((kind) => kind !== 'manage_links');

/**
 * E-mail of operations (issue #14; migration 0008): the notice of a partial refund an operator made (one per refund,
 * naming it by `refund_id`), and the staff's daily digest (one per staff address and day, naming it by `digest_date`).
 */
export const OPERATIONS_MAIL_KINDS = ['partial_refund', 'staff_digest'] as const;
/** One of {@link OPERATIONS_MAIL_KINDS}. */
export type OperationsMailKind = (typeof OPERATIONS_MAIL_KINDS)[number];

/**
 * E-mail of the staff back office (issue #21; migration 0010): the invitation with its enrollment link (72 hours) and an
 * e-mailed sign-in link (15 minutes), each naming its link by `staff_link_id` (the token is rebuilt from it when sent).
 */
export const STAFF_MAIL_KINDS = ['staff_invitation', 'staff_sign_in_link'] as const;
/** One of {@link STAFF_MAIL_KINDS}. */
export type StaffMailKind = (typeof STAFF_MAIL_KINDS)[number];

/**
 * E-mail of dedicated gifts (issue #23, section 3; decision 0090): the card to the person the donor asked to notify, one
 * per donation (`donation_id`), queued with the gift's success and cancelled by a refund made before it was sent.
 */
export const TRIBUTE_MAIL_KINDS = ['tribute_card'] as const;

/**
 * E-mail of outgoing webhooks (issue #38; decision 0106): to each admin, an endpoint paused after three days of failed
 * deliveries, naming it by `webhook_endpoint_id`.
 */
export const WEBHOOK_MAIL_KINDS = ['webhook_endpoint_paused'] as const;
/** One of {@link WEBHOOK_MAIL_KINDS}. */
export type WebhookMailKind = (typeof WEBHOOK_MAIL_KINDS)[number];

/** Every kind of e-mail: receipts', recurring plans', operations', the staff's ({@link STAFF_MAIL_KINDS}) and dedications'. */
export const MAIL_KINDS = [...RECEIPT_MAIL_KINDS, ...RECURRING_MAIL_KINDS, ...OPERATIONS_MAIL_KINDS, ...STAFF_MAIL_KINDS, ...TRIBUTE_MAIL_KINDS, ...WEBHOOK_MAIL_KINDS] as const;
/** One of {@link MAIL_KINDS}. */
export type MailKind = (typeof MAIL_KINDS)[number];

/**
 * State of an outbox message: `pending` until sent, `sent`, or `failed` after a permanent refusal (never retried), or
 * `cancelled` when what it reports stopped being true before it was sent (a dedicated gift's card after a refund;
 * issue #23, decision 0090).
 */
export const MAIL_STATUSES = ['pending', 'sent', 'failed', 'cancelled'] as const;
/** One of {@link MAIL_STATUSES}. */
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * The transactional outbox (issue #12; decision 0040): one row per e-mail to send, written in the same
 * transaction as the change it reports (a donation's success, later its refund), and sent by the relay
 * (mail/relay.ts). What the message says is rendered when it is sent, from the rows it names.
 * NOTE: `dedupe_key` is unique (`receipt:<donation id>`, `year_end_statement:<year>:<address>`...), and so is
 * (kind, donation_id): a second message of one kind for one donation cannot exist. The Message-ID is derived
 * from the row's id, so every attempt of one row sends the same Message-ID. `locked_until` is the lease of the
 * relay that claimed the row (FOR UPDATE SKIP LOCKED); a relay that dies leaves it to expire.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    kind: text('kind', { enum: MAIL_KINDS }).notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    donationId: uuid('donation_id').references(() => donations.id),
    recipient: text('recipient').notNull(),
    statementYear: integer('statement_year'),
    /** The recurring plan a message of {@link RECURRING_MAIL_KINDS} is about (issue #13); NULL for `manage_links`, which lists them all. */
    recurringPlanId: uuid('recurring_plan_id').references((): AnyPgColumn => recurringPlans.id),
    /** The refund a `partial_refund` notice reports (issue #14). */
    refundId: uuid('refund_id').references((): AnyPgColumn => donationRefunds.id),
    /** The calendar day (in the staff's TZ) a `staff_digest` summarises (issue #14). */
    digestDate: date('digest_date', { mode: 'string' }),
    /** The enrollment or sign-in link a staff message carries (issue #21). */
    staffLinkId: uuid('staff_link_id').references((): AnyPgColumn => staffLinks.id),
    /**
     * The language a donor asked for the message in (issue #24): the page's language of a `receipt_links` or
     * `manage_links` request. NULL: the message follows its gift's or plan's language (decision 0094).
     */
    locale: text('locale', { enum: LOCALES }),
    /** The webhook endpoint a `webhook_endpoint_paused` message is about (issue #38). */
    webhookEndpointId: uuid('webhook_endpoint_id').references((): AnyPgColumn => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    // NOTE: a receipt sent again by staff (issue #21) may be sent several times for one donation.
    uniqueIndex('mail_outbox_kind_donation_unique').on(table.kind, table.donationId).where(sql`${table.kind} <> 'receipt_resend'`),
    index('mail_outbox_donation_id_idx').on(table.donationId),
    check('mail_outbox_kind_check', sql`${table.kind} IN (${sqlList(MAIL_KINDS)})`),
    check('mail_outbox_status_check', sql`${table.status} IN (${sqlList(MAIL_STATUSES)})`),
    check('mail_outbox_attempts_check', sql`${table.attempts} >= 0`),
    // A receipt or its void notice always names its donation; a statement always names its year.
    check(
      'mail_outbox_donation_check',
      sql`(${table.kind} NOT IN ('receipt', 'receipt_void', 'receipt_resend') OR ${table.donationId} IS NOT NULL) AND (${table.kind} <> 'year_end_statement' OR ${table.statementYear} IS NOT NULL)`,
    ),
    check(
      'mail_outbox_recurring_plan_check',
      sql`${table.kind} NOT IN (${sqlList(PLAN_MAIL_KINDS)}) OR ${table.recurringPlanId} IS NOT NULL`,
    ),
    check(
      'mail_outbox_operations_check',
      sql`(${table.kind} <> 'partial_refund' OR ${table.refundId} IS NOT NULL) AND (${table.kind} <> 'staff_digest' OR ${table.digestDate} IS NOT NULL)`,
    ),
    check('mail_outbox_staff_link_check', sql`${table.kind} NOT IN (${sqlList(STAFF_MAIL_KINDS)}) OR ${table.staffLinkId} IS NOT NULL`),
    check('mail_outbox_webhook_check', sql`${table.kind} NOT IN (${sqlList(WEBHOOK_MAIL_KINDS)}) OR ${table.webhookEndpointId} IS NOT NULL`),
    check('mail_outbox_tribute_check', sql`${table.kind} NOT IN (${sqlList(TRIBUTE_MAIL_KINDS)}) OR ${table.donationId} IS NOT NULL`),
    check('mail_outbox_locale_check', isLanguageTag(table.locale)),
    index('mail_outbox_due_idx').on(table.status, table.nextAttemptAt),
    // A donor's page (issue #22) lists the year-end statements sent to the donor's address, compared case-insensitively.
    index('mail_outbox_statement_recipient_idx').on(sql`lower(${table.recipient})`).where(sql`${table.kind} = 'year_end_statement'`),
  ],
);

/** An outbox row as Drizzle reads it. */
export type MailOutboxRow = typeof mailOutbox.$inferSelect;
/** An outbox row as Drizzle inserts it. */
export type NewMailOutboxRow = typeof mailOutbox.$inferInsert;

/**
 * One row per donor (issue #22, "Donors"; decision 0072): an e-mail address trimmed and lower-cased (`address`) with at
 * least one charged gift (succeeded, refunded or disputed), its donor key (staff/shared/donor-key.ts), its first and
 * last gift, its number of charged gifts and its lifetime total in cents, net as the ledger's statistics count it (the
 * kept amount, ledger/kept-amount.ts, of the gifts still succeeded). NOTE: kept by the database itself: statement
 * triggers on donations (migration 0016_staff_donors) recompute the rows of the donors whose gifts a statement changed
 * (status, amounts, address, date) or deleted, with the donors' rows locked; nothing else writes it. It lets the donors
 * list sort and page 100,000 donations' donors from an index instead of grouping every gift on each request.
 */
export const donorTotals = pgTable(
  'donor_totals',
  {
    address: text('address').primaryKey(),
    donorKey: text('donor_key').notNull().unique(),
    firstGiftAt: timestamp('first_gift_at', { withTimezone: true }).notNull(),
    lastGiftAt: timestamp('last_gift_at', { withTimezone: true }).notNull(),
    giftCount: integer('gift_count').notNull(),
    lifetimeCents: bigint('lifetime_cents', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('donor_totals_last_gift_idx').on(table.lastGiftAt, table.address),
    index('donor_totals_first_gift_idx').on(table.firstGiftAt, table.address),
    index('donor_totals_lifetime_idx').on(table.lifetimeCents, table.address),
    index('donor_totals_gift_count_idx').on(table.giftCount, table.address),
  ],
);

/** A donor's totals row as Drizzle reads it. */
export type DonorTotalsRow = typeof donorTotals.$inferSelect;

/**
 * One row per gateway webhook event processed (issue #11: "Each event id is processed once (a unique
 * constraint, in the same transaction as its effect)"). Stripe delivers an event at least once, sometimes
 * twice and out of order: the primary key makes the second delivery a no-op.
 */
export const webhookEvents = pgTable('webhook_events', {
  /** The gateway's event id (`evt_...`). */
  id: text('id').primaryKey(),
  /** The event's type, e.g. `payment_intent.succeeded`. */
  type: text('type').notNull(),
  /** The gateway that sent it (`stripe`). */
  gateway: text('gateway').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Life cycle of a recurring plan (issue #13): `active` while its renewals go through; `past_due` after a renewal
 * was declined, while it is retried (DUNNING_RETRY_DAYS); `paused` by the donor, or after the last retry failed;
 * `cancelled` for good. NOTE: the database enforces the moves (migration 0006's trigger): a plan is written
 * `active`; active <-> past_due, active | past_due -> paused, paused -> active, and anything but cancelled -> cancelled.
 */
export const RECURRING_PLAN_STATUSES = ['active', 'past_due', 'paused', 'cancelled'] as const;
/** One of {@link RECURRING_PLAN_STATUSES}. */
export type RecurringPlanStatus = (typeof RECURRING_PLAN_STATUSES)[number];

/** Frequencies of a recurring plan: the FREQUENCIES that renew. */
export const RECURRING_FREQUENCIES = ['monthly', 'yearly'] as const;

/**
 * One row per recurring gift (issue #13): what to charge (amount in cents, currency, frequency, cause), whom (the
 * donor of `first_donation_id`, the plan's first gift), with what (the gateway's saved payment method), and when
 * (the calendar from `anchor_date`, the first charge's UTC date; recurring/calendar.ts). `period` is the next period
 * to charge (1 = the first renewal), due at `next_attempt_at` (its date at 00:00 UTC, or the next dunning retry).
 * NOTE: the saved payment method is the gateway's reference to a card it keeps (Stripe's `pm_...` on a Customer
 * `cus_...`; the test gateway's token), with its brand, last4 and expiry for the donor's page: never a card number.
 */
export const recurringPlans = pgTable(
  'recurring_plans',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    status: text('status', { enum: RECURRING_PLAN_STATUSES }).notNull().default('active'),
    amountCents: integer('amount_cents').notNull(),
    currency: char('currency', { length: 3 }).notNull().default('USD'),
    frequency: text('frequency', { enum: RECURRING_FREQUENCIES }).notNull(),
    cause: text('cause', { enum: CAUSES }).notNull(),
    firstDonationId: uuid('first_donation_id')
      .notNull()
      .unique()
      .references((): AnyPgColumn => donations.id),
    gateway: text('gateway').notNull(),
    paymentMethodId: text('payment_method_id').notNull(),
    customerId: text('customer_id'),
    cardBrand: text('card_brand', { enum: CARD_BRANDS }).notNull(),
    cardLast4: char('card_last4', { length: 4 }).notNull(),
    cardExpiryMonth: integer('card_expiry_month').notNull(),
    cardExpiryYear: integer('card_expiry_year').notNull(),
    anchorDate: date('anchor_date', { mode: 'string' }).notNull(),
    period: integer('period').notNull().default(1),
    nextChargeOn: date('next_charge_on', { mode: 'string' }).notNull(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    /** Dunning retries made of the current period (0 while it has not failed). */
    retryCount: integer('retry_count').notNull().default(0),
    /** When the current period's first try was declined; NULL unless past due. */
    pastDueSince: timestamp('past_due_since', { withTimezone: true }),
    /** A pause the donor asked for until this date (then the plan resumes); NULL for a pause until resumed. */
    pausedUntil: date('paused_until', { mode: 'string' }),
    /** Lease of the billing run that claimed the plan (FOR UPDATE SKIP LOCKED); a run that dies leaves it to expire. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** Cents added to each charge to cover the card fee (issue #23, section 2): the first gift's; 0 once the donor turns it off. `amount_cents` is the gift. */
    feeCoveredCents: integer('fee_covered_cents').notNull().default(0),
    /** The donor's language (issue #24; decision 0094): the first gift's; its renewals and every e-mail of the plan are in it. */
    locale: text('locale', { enum: LOCALES }).notNull().default('en'),
    isTestPayment: boolean('is_test_payment').notNull(),
    /** Why staff cancelled the plan (issue #36, part 3: the cancel dialog asks), as they typed it; NULL otherwise. */
    cancelReason: text('cancel_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('recurring_plans_locale_check', isLanguageTag(table.locale)),
    check('recurring_plans_status_check', sql`${table.status} IN (${sqlList(RECURRING_PLAN_STATUSES)})`),
    check('recurring_plans_amount_cents_check', sql`${table.amountCents} > 0`),
    check('recurring_plans_fee_covered_cents_check', sql`${table.feeCoveredCents} >= 0`),
    check('recurring_plans_frequency_check', sql`${table.frequency} IN (${sqlList(RECURRING_FREQUENCIES)})`),
    check('recurring_plans_cause_check', sql`${table.cause} IN (${sqlList(CAUSES)})`),
    check('recurring_plans_card_brand_check', sql`${table.cardBrand} IN (${sqlList(CARD_BRANDS)})`),
    check('recurring_plans_card_last4_check', sql`${table.cardLast4} ~ '^[0-9]{4}$'`),
    check('recurring_plans_card_expiry_check', sql`${table.cardExpiryMonth} BETWEEN 1 AND 12 AND ${table.cardExpiryYear} BETWEEN 2000 AND 2200`),
    check('recurring_plans_period_check', sql`${table.period} >= 1 AND ${table.retryCount} >= 0`),
    check('recurring_plans_past_due_check', sql`(${table.status} = 'past_due') = (${table.pastDueSince} IS NOT NULL)`),
    index('recurring_plans_due_idx').on(table.status, table.nextAttemptAt),
  ],
);

/** A recurring plan row as Drizzle reads it. */
export type RecurringPlanRow = typeof recurringPlans.$inferSelect;
/** A recurring plan row as Drizzle inserts it. */
export type NewRecurringPlanRow = typeof recurringPlans.$inferInsert;

/**
 * Life cycle of a refund (issue #32; decision 0095): written `pending`, with its gateway idempotency key, in its own
 * committed transaction before the gateway is asked, then settled: `succeeded` with the gateway's refund id (only
 * then does it count in `donations.refunded_cents`), or `failed` (the gateway refused it, or has no refund under its
 * key) with the gateway's code and message. A row left `pending` past PENDING_TIMEOUT_MS is settled by the reconciler.
 */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
/** One of {@link REFUND_STATUSES}. */
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * The staff member's audit entry of a refund (issue #21), kept with its pending row and written to admin_audit_log at
 * settlement, in the settlement's transaction, by whoever settles it (the request, the reconciler or the webhook).
 */
export interface RefundAuditEntry {
  actorStaffId: string;
  actorEmail: string;
  requestId: string | null;
  action: string;
  subjectType: string;
  subjectId: string;
  /** What the staff member asked (the amount in cents, the reason); the settlement adds the refund's ids. */
  details: Record<string, unknown>;
}

/**
 * One row per refund of a donation (issue #14; migration 0008; issue #32, migration 0021): asked through
 * `POST /api/admin/donations/:id/refund` or the staff's route, or reported by the gateway (a refund made in Stripe's
 * Dashboard). How much (cents) of which donation, under which gateway refund (`re_...`, once settled), asked under
 * which Idempotency-Key and sent to the gateway under which key (`gateway_idempotency_key`; NULL for a reported
 * refund). A repeat with the same key finds this row and refunds nothing more; the sum of a donation's `succeeded`
 * rows is its `refunded_cents`, and its `pending` rows count against what is left to refund.
 */
export const donationRefunds = pgTable(
  'donation_refunds',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    donationId: uuid('donation_id')
      .notNull()
      .references(() => donations.id),
    amountCents: integer('amount_cents').notNull(),
    gateway: text('gateway').notNull(),
    /** The gateway's refund id (`re_...`): set when `succeeded`; a `failed` row has one only when the gateway made a refund that failed. */
    gatewayRefundId: text('gateway_refund_id').unique(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('succeeded'),
    /** The key the gateway was asked under (admin/refund.ts gatewayRefundKey), by which the reconciler finds the refund. */
    gatewayIdempotencyKey: text('gateway_idempotency_key').unique(),
    /** Why a `failed` refund failed: the gateway's code (`charge_already_refunded`, `refund_not_made`...) and message. */
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    /** The staff member's audit entry, written at settlement (NULL for the operator's and reported refunds). */
    auditEntry: jsonb('audit_entry').$type<RefundAuditEntry>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was settled (`succeeded` or `failed`); NULL while `pending`. Refunds count in this order. */
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    check('donation_refunds_amount_cents_check', sql`${table.amountCents} > 0`),
    check('donation_refunds_status_check', sql`${table.status} IN (${sqlList(REFUND_STATUSES)})`),
    check(
      'donation_refunds_settlement_check',
      sql`(${table.status} = 'pending') = (${table.settledAt} IS NULL) AND (${table.status} <> 'succeeded' OR ${table.gatewayRefundId} IS NOT NULL) AND (${table.status} <> 'failed' OR ${table.failureCode} IS NOT NULL)`,
    ),
    index('donation_refunds_donation_id_idx').on(table.donationId),
    index('donation_refunds_pending_idx').on(table.createdAt).where(sql`${table.status} = 'pending'`),
  ],
);

/** A refund row as Drizzle reads it. */
export type DonationRefundRow = typeof donationRefunds.$inferSelect;

/**
 * The audit trail (issue #14, then issue #21): one row per request to an admin route, whatever its answer, and one per
 * staff action, written in the same transaction as its effect. `actor_type` says who: `operator` (the bearer token;
 * the default, so the operator hook's rows need not say it), `staff` (then `actor_staff_id` and `actor_email`, the
 * address at the time), or `system` (a refused sign-in whose person is unknown). `action` is the route of an operator
 * request (`POST /api/admin/donations/:id/refund`) or the name of a staff action (`staff.sign_in`, `donation.refund`);
 * `target` what an operator request acted on, `status_code` its answer (NULL for staff actions); `subject_type` and
 * `subject_id` name the record a staff action was about (a donation's timeline finds its entries by them); `details`
 * holds what else matters (an old address, a refund's amount in cents), never a token, card data or a secret.
 * Append-only (migration 0008's trigger).
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    action: text('action').notNull(),
    target: text('target'),
    requestId: text('request_id'),
    statusCode: integer('status_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    actorType: text('actor_type', { enum: AUDIT_ACTOR_TYPES }).notNull().default('operator'),
    actorStaffId: uuid('actor_staff_id').references((): AnyPgColumn => staffMembers.id),
    actorEmail: text('actor_email'),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (table) => [
    index('admin_audit_log_created_at_idx').on(table.createdAt),
    index('admin_audit_log_subject_idx').on(table.subjectId, table.createdAt),
    index('admin_audit_log_actor_staff_idx').on(table.actorStaffId, table.createdAt),
    // Issue #36: a gift's timeline finds the donor-wide corrections and merges that changed it (their `donationIds`).
    index('admin_audit_log_donor_donations_idx').using('gin', sql`(${table.details} -> 'donationIds')`).where(sql`${table.subjectType} = 'donor'`),
    check('admin_audit_log_actor_type_check', sql`${table.actorType} IN (${sqlList(AUDIT_ACTOR_TYPES)})`),
    check('admin_audit_log_staff_actor_check', sql`${table.actorType} <> 'staff' OR ${table.actorStaffId} IS NOT NULL`),
  ],
);

/** An audit row as Drizzle reads it. */
export type AdminAuditRow = typeof adminAuditLog.$inferSelect;

/**
 * The staff of the back office (issue #21): an e-mail address (unique whatever its case among members not removed)
 * and a role (shared/staff/roles.ts). No password anywhere. A removed member keeps their row (the audit log names
 * them) with `removed_at` set; the same address may be invited again as a new member.
 */
export const staffMembers = pgTable(
  'staff_members',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    email: text('email').notNull(),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('staff_members_email_unique').on(sql`lower(${table.email})`).where(sql`${table.removedAt} IS NULL`),
    check('staff_members_role_check', sql`${table.role} IN (${sqlList(STAFF_ROLES)})`),
  ],
);

/** A staff member as Drizzle reads it. */
export type StaffMemberRow = typeof staffMembers.$inferSelect;

/**
 * A staff member's passkeys (WebAuthn Level 3 credential records, section 4 "credential record"): the credential id
 * and COSE public key (base64url), the signature counter (a clone shows itself by a counter that does not grow), the
 * transports the browser reported, and backup state (`multiDevice` = backup eligible; `backed_up` = synced).
 */
export const staffCredentials = pgTable(
  'staff_credentials',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffMembers.id),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    deviceType: text('device_type', { enum: ['singleDevice', 'multiDevice'] }).notNull(),
    backedUp: boolean('backed_up').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [index('staff_credentials_staff_id_idx').on(table.staffId)],
);

/** A passkey row as Drizzle reads it. */
export type StaffCredentialRow = typeof staffCredentials.$inferSelect;

/**
 * Staff sessions (issue #21; OWASP Session Management Cheat Sheet): only the SHA-256 of the session id is stored, so a
 * copy of the table signs no one in. `last_seen_at` drives the idle timeout (30 minutes), `created_at` the absolute
 * one (12 hours), both by the injected clock; `strong_auth_at` is the last passkey or link sign-in (refunds need one
 * within 15 minutes). `ended_at` is set by sign-out, a role change or removal; an ended session never comes back.
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    idHash: text('id_hash').notNull().unique(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffMembers.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    strongAuthAt: timestamp('strong_auth_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [index('staff_sessions_staff_id_idx').on(table.staffId)],
);

/** A session row as Drizzle reads it. */
export type StaffSessionRow = typeof staffSessions.$inferSelect;

/** What an e-mailed staff link does: enroll a passkey (an invitation, 72 hours) or sign in (15 minutes). */
export const STAFF_LINK_PURPOSES = ['enroll', 'sign_in'] as const;
/** One of {@link STAFF_LINK_PURPOSES}. */
export type StaffLinkPurpose = (typeof STAFF_LINK_PURPOSES)[number];

/**
 * E-mailed staff links (issue #21): the SHA-256 of the token (the token itself is never stored; decision 0082), its
 * purpose, its member, its expiry and when it was consumed. Only a POST consumes one, once.
 */
export const staffLinks = pgTable(
  'staff_links',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    tokenHash: text('token_hash').notNull().unique(),
    purpose: text('purpose', { enum: STAFF_LINK_PURPOSES }).notNull(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffMembers.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    check('staff_links_purpose_check', sql`${table.purpose} IN (${sqlList(STAFF_LINK_PURPOSES)})`),
    index('staff_links_staff_id_idx').on(table.staffId),
  ],
);

/** A link row as Drizzle reads it. */
export type StaffLinkRow = typeof staffLinks.$inferSelect;

/** What a WebAuthn challenge was issued for: enrolling by invitation, signing in, or adding a passkey while signed in. */
export const WEBAUTHN_CHALLENGE_PURPOSES = ['enroll', 'sign_in', 'add_passkey'] as const;
/** One of {@link WEBAUTHN_CHALLENGE_PURPOSES}. */
export type WebAuthnChallengePurpose = (typeof WEBAUTHN_CHALLENGE_PURPOSES)[number];

/**
 * Pending WebAuthn challenges (WebAuthn Level 3 section 13.4.3: random, kept by the relying party, used once): the
 * challenge (base64url), its purpose, the member it was issued to (NULL for a discoverable sign-in), and its expiry.
 * The verify step deletes the row it uses, so a challenge answers one ceremony.
 */
export const staffWebauthnChallenges = pgTable(
  'staff_webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: WEBAUTHN_CHALLENGE_PURPOSES }).notNull(),
    staffId: uuid('staff_id').references(() => staffMembers.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    check('staff_webauthn_challenges_purpose_check', sql`${table.purpose} IN (${sqlList(WEBAUTHN_CHALLENGE_PURPOSES)})`),
    index('staff_webauthn_challenges_expires_at_idx').on(table.expiresAt),
  ],
);

/** Who made a change of a recurring plan (issue #22, "A plan's page"): its donor (manage link), a staff member, or the billing runner. */
export const PLAN_CHANGE_ACTOR_TYPES = ['donor', 'staff', 'billing'] as const;
/** One of {@link PLAN_CHANGE_ACTOR_TYPES}. */
export type PlanChangeActorType = (typeof PLAN_CHANGE_ACTOR_TYPES)[number];

/**
 * Every change of a recurring plan with who made it (issue #22, "every change with who made it (donor from the manage
 * link, staff member, billing runner)"), written in the transaction of the change itself (recurring/plan-history.ts):
 * `action` is the donor's or staff's PlanChange action (`change_amount`, `pause`, `cancel`...) or the runner's
 * (`past_due`, `retry_scheduled`, `paused_after_failures`, `resumed_after_pause`, `recovered`); `details` what
 * changed (amounts in cents, dates), never card data beyond brand and last4. `staff_member_id` is set exactly for
 * staff changes. Append-only by use.
 */
export const recurringPlanChanges = pgTable(
  'recurring_plan_changes',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    planId: uuid('plan_id')
      .notNull()
      .references((): AnyPgColumn => recurringPlans.id),
    actorType: text('actor_type', { enum: PLAN_CHANGE_ACTOR_TYPES }).notNull(),
    staffMemberId: uuid('staff_member_id').references((): AnyPgColumn => staffMembers.id),
    action: text('action').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('recurring_plan_changes_plan_idx').on(table.planId, table.createdAt),
    check('recurring_plan_changes_actor_type_check', sql`${table.actorType} IN (${sqlList(PLAN_CHANGE_ACTOR_TYPES)})`),
    check('recurring_plan_changes_staff_check', sql`(${table.actorType} = 'staff') = (${table.staffMemberId} IS NOT NULL)`),
  ],
);

/** A plan change row as Drizzle reads it. */
export type RecurringPlanChangeRow = typeof recurringPlanChanges.$inferSelect;

/** The texts of a campaign in one language (issue #34): its title and short description. */
export interface CampaignText {
  title: string;
  description: string;
}

/**
 * Campaigns that staff run (issue #34; decision 0101): a slug (lower-case, so unique without case; fixed once a gift has
 * recorded it), its title and description per language (`en` required, another language falls back to English), an
 * optional goal in cents, optional start and end, what its link preselects, and whether its supporters' list is shown.
 * Its status is derived (shared/campaigns.ts): a draft until `published`, then live between `starts_at` and `ends_at`.
 * Donations name it by slug (`donations.campaign`).
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    slug: text('slug').notNull().unique(),
    /** `{ "en": { "title": ..., "description": ... }, "es": ... }`: one entry per language, English always. */
    texts: jsonb('texts').$type<Record<string, CampaignText>>().notNull(),
    goalCents: bigint('goal_cents', { mode: 'number' }),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** What the link preselects (issue #23's link choices): an amount in cents, a frequency, a cause; NULL for none. */
    presetAmountCents: integer('preset_amount_cents'),
    presetFrequency: text('preset_frequency', { enum: FREQUENCIES }),
    presetCause: text('preset_cause', { enum: CAUSES }),
    showSupporters: boolean('show_supporters').notNull().default(false),
    published: boolean('published').notNull().default(false),
    /**
     * When a gift first made the counted raised amount reach the goal (issue #38's `campaign.goal_reached`, sent then,
     * once: decision 0113); NULL until then. Set in that gift's transaction, never cleared.
     */
    goalReachedAt: timestamp('goal_reached_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('campaigns_slug_check', sql`${table.slug} ~ '^[a-z0-9-]{1,64}$'`),
    check('campaigns_texts_check', sql`jsonb_typeof(${table.texts} -> 'en' -> 'title') = 'string'`),
    check('campaigns_goal_cents_check', sql`${table.goalCents} > 0`),
    check('campaigns_dates_check', sql`${table.endsAt} > ${table.startsAt}`),
    check('campaigns_preset_amount_cents_check', sql`${table.presetAmountCents} > 0`),
    check('campaigns_preset_frequency_check', sql`${table.presetFrequency} IN (${sqlList(FREQUENCIES)})`),
    check('campaigns_preset_cause_check', sql`${table.presetCause} IN (${sqlList(CAUSES)})`),
  ],
);

/** A campaign row as Drizzle reads it. */
export type CampaignRow = typeof campaigns.$inferSelect;

/**
 * Upgrades done once per database at start-up, by name (issue #34: "on the first start after this change each slug
 * CAMPAIGNS lists becomes a live campaign, once"): the row is written in the upgrade's own transaction, so a second
 * start, or a second process starting at the same time, does not do it again.
 */
export const oneTimeUpgrades = pgTable('one_time_upgrades', {
  name: text('name').primaryKey(),
  doneAt: timestamp('done_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A donor's choice to appear on a campaign's supporters' list (issue #34, "Supporters' list"; decision 0103), one row per
 * donation: made on the thank-you page of a gift that recorded a campaign (never an anonymous one), by the donor who
 * holds that gift's receipt token. `show_name` lists the donor's name as typed, `show_message` also the gift's message;
 * `hidden_at`/`hidden_by` are set when staff hide it (audited), and a donor's later choice never unhides it. What the
 * list shows is read from the donation (its name, message and date), so the row holds no copy of donor data.
 */
export const campaignSupporters = pgTable(
  'campaign_supporters',
  {
    donationId: uuid('donation_id')
      .primaryKey()
      .references(() => donations.id),
    /** The campaign the gift recorded (lower-case slug), copied for the list's index. */
    campaign: text('campaign').notNull(),
    showName: boolean('show_name').notNull(),
    showMessage: boolean('show_message').notNull(),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenBy: uuid('hidden_by').references(() => staffMembers.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('campaign_supporters_campaign_idx').on(table.campaign, table.createdAt)],
);

/** A supporters' list row as Drizzle reads it. */
export type CampaignSupporterRow = typeof campaignSupporters.$inferSelect;

/**
 * Notes on a donor (issue #36, part 1: "she prefers a call in the morning"; decision 0110): free text written by finance
 * or admin, read by every staff member, kept with who wrote it (id and address at the time) and when. A note names its
 * donor by donor key (staff/shared/donor-key.ts); a donor-wide e-mail correction or a merge moves the donor's notes to
 * the new key in its transaction (and a merge's undo moves them back). Never edited; see decision 0110.
 */
export const donorNotes = pgTable(
  'donor_notes',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    donorKey: text('donor_key').notNull(),
    body: text('body').notNull(),
    authorStaffId: uuid('author_staff_id')
      .notNull()
      .references((): AnyPgColumn => staffMembers.id),
    authorEmail: text('author_email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('donor_notes_donor_key_idx').on(table.donorKey, table.createdAt),
    check('donor_notes_body_check', sql`char_length(${table.body}) BETWEEN 1 AND ${sql.raw(String(DONOR_NOTE_MAX_LENGTH))}`),
  ],
);

/** A donor note as Drizzle reads it. */
export type DonorNoteRow = typeof donorNotes.$inferSelect;

/** What a merge changed, row by row, with each row's values before it (so its undo restores them exactly). */
export interface DonorMergeChanges {
  /** Each gift moved: its id, and its address and name before the merge. */
  donations: { id: string; donorEmail: string; donorName: string }[];
  /** Each message still waiting that the merge redirected: its id and recipient before. */
  messages: { id: string; recipient: string }[];
  /** Each note moved from the merged donor to the kept one. */
  notes: { id: string }[];
}

/**
 * Donors merged by staff (issue #36, part 1: "Merge two donors"; decision 0110): the donor merged (`source_donor_key`)
 * into the one kept (`target_donor_key`), the kept donor's address and name the gifts took, who merged and when, and
 * every row changed with its old values (`changes`). `undone_at` is set by the undo (within 30 days), which restores
 * those values when no row changed since.
 */
export const donorMerges = pgTable(
  'donor_merges',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    sourceDonorKey: text('source_donor_key').notNull(),
    sourceEmail: text('source_email').notNull(),
    targetDonorKey: text('target_donor_key').notNull(),
    targetEmail: text('target_email').notNull(),
    targetName: text('target_name').notNull(),
    changes: jsonb('changes').$type<DonorMergeChanges>().notNull(),
    mergedByStaffId: uuid('merged_by_staff_id')
      .notNull()
      .references((): AnyPgColumn => staffMembers.id),
    mergedByEmail: text('merged_by_email').notNull(),
    mergedAt: timestamp('merged_at', { withTimezone: true }).notNull().defaultNow(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    undoneByEmail: text('undone_by_email'),
  },
  (table) => [
    index('donor_merges_target_idx').on(table.targetDonorKey, table.mergedAt),
    check('donor_merges_two_donors_check', sql`${table.sourceDonorKey} <> ${table.targetDonorKey}`),
  ],
);

/** A donor merge as Drizzle reads it. */
export type DonorMergeRow = typeof donorMerges.$inferSelect;
/** State of a webhook endpoint: `active` receives events; `paused` by an admin or after three days of failures receives none. */
export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'paused'] as const;

/**
 * The charity's other systems that receive signed outgoing webhooks (issue #38, "/staff/integrations"; decision 0106):
 * the URL (https://, or http:// outside production), the events it wants, whether the payload carries the donor's
 * contact, its signing secret (`whsec_...`, Standard Webhooks) and the one before a rotation, which still signs until
 * `previous_secret_expires_at` (24 hours). `failing_since` is the first failed try of the current run of failures:
 * three days of it pause the endpoint (`paused_reason` `failing`).
 * NOTE: secrets are kept as they are (HMAC keys must be known to sign); the page shows one once, at creation or rotation.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull(),
    includeContact: boolean('include_contact').notNull().default(true),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    status: text('status', { enum: WEBHOOK_ENDPOINT_STATUSES }).notNull().default('active'),
    /** Why it is paused: `staff` (an admin paused it) or `failing` (three days of failed deliveries). */
    pausedReason: text('paused_reason'),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('webhook_endpoints_status_check', sql`${table.status} IN (${sqlList(WEBHOOK_ENDPOINT_STATUSES)})`),
    check('webhook_endpoints_secret_check', sql`${table.secret} LIKE 'whsec_%'`),
  ],
);

/** A webhook endpoint row as Drizzle reads it. */
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * State of a webhook delivery: `pending` until a receiver answers 2xx (`delivered`), `failed` after a 4xx other than
 * 429 or after three days of retries, `cancelled` when its endpoint was paused for failing.
 */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;

/**
 * The webhook outbox (issue #38; decision 0106): one row per (event, endpoint), written by recordWebhookEvent in the
 * transaction of the event's change, so a committed event is never lost and a rolled-back one never sent. `message_id`
 * is the Standard Webhooks `webhook-id`, the same on every try and resend. `body` is the exact JSON sent (the event as
 * it was at its change, with or without the donor's contact as the endpoint asked), signed at each try.
 * `locked_until` is the lease of the relay that claimed it (FOR UPDATE SKIP LOCKED), as the mail outbox's.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Start of its three days of retries (the relay's clock): its first failed try since written or resent; null before. */
    retryWindowStartedAt: timestamp('retry_window_started_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (table) => [
    unique('webhook_deliveries_endpoint_message_unique').on(table.endpointId, table.messageId),
    check('webhook_deliveries_status_check', sql`${table.status} IN (${sqlList(WEBHOOK_DELIVERY_STATUSES)})`),
    index('webhook_deliveries_due_idx').on(table.status, table.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(table.endpointId, table.createdAt),
  ],
);

/** A webhook delivery row as Drizzle reads it. */
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * The delivery log (issue #38: "each try's time, status, latency and the start of the answer, kept 30 days"): one row
 * per try of a delivery. `status_code` is NULL when no answer came (`error` says why: timeout, refused address...).
 */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    responseStart: text('response_start').notNull().default(''),
    error: text('error'),
  },
  (table) => [index('webhook_attempts_endpoint_idx').on(table.endpointId, table.attemptedAt)],
);

/** A delivery log row as Drizzle reads it. */
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
