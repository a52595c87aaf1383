import { sql } from 'drizzle-orm';
import { boolean, char, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { CARD_BRANDS } from '../../shared/card';
import { CAUSES } from '../../shared/causes';
import { FREQUENCIES } from '../../shared/frequencies';

/**
 * Database schema (Drizzle, PostgreSQL). The SQL migrations in `drizzle/` are generated from this file
 * with `npx drizzle-kit generate`; after changing it, generate a new migration rather than editing one.
 * NOTE: the SQL must run on PostgreSQL 15 and on PGlite (DESIGN.md): nothing newer than 15.
 */

/**
 * Life cycle of a donation: written `pending` before the card is charged, then moved once, to
 * `succeeded` or `failed` (issue #2). A row left `pending` means the charge's outcome is unknown
 * (the process stopped or the gateway errored) and needs reconciling with the gateway.
 */
export const DONATION_STATUSES = ['pending', 'succeeded', 'failed'] as const;
/** One of {@link DONATION_STATUSES}. */
export type DonationStatus = (typeof DONATION_STATUSES)[number];

/** `'a', 'b'` for a CHECK constraint's IN list; only ever called with the constant lists above. */
const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '));

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
    cardBrand: text('card_brand', { enum: CARD_BRANDS }).notNull(),
    cardLast4: char('card_last4', { length: 4 }).notNull(),
    gateway: text('gateway').notNull(),
    gatewayTransactionId: text('gateway_transaction_id').unique(),
    declineCode: text('decline_code'),
    isTestPayment: boolean('is_test_payment').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('donations_status_check', sql`${table.status} IN (${sqlList(DONATION_STATUSES)})`),
    check('donations_amount_cents_check', sql`${table.amountCents} > 0`),
    check('donations_frequency_check', sql`${table.frequency} IN (${sqlList(FREQUENCIES)})`),
    check('donations_cause_check', sql`${table.cause} IN (${sqlList(CAUSES)})`),
    check('donations_card_brand_check', sql`${table.cardBrand} IN (${sqlList(CARD_BRANDS)})`),
    check('donations_card_last4_check', sql`${table.cardLast4} ~ '^[0-9]{4}$'`),
    // A succeeded donation always has the gateway's transaction id; a failed one its decline code.
    check(
      'donations_outcome_check',
      sql`(${table.status} <> 'succeeded' OR ${table.gatewayTransactionId} IS NOT NULL) AND (${table.status} <> 'failed' OR ${table.declineCode} IS NOT NULL)`,
    ),
    index('donations_status_idx').on(table.status),
  ],
);

/** A donation row as Drizzle reads it. */
export type DonationRow = typeof donations.$inferSelect;
/** A donation row as Drizzle inserts it. */
export type NewDonationRow = typeof donations.$inferInsert;
