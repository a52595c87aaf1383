import { sql } from 'drizzle-orm';
import { CAUSES } from '../../shared/causes';
import type { Database } from '../db/client';

/**
 * Many donations at once, in bulk SQL (generate_series; no API call per donation), for `npm run bench:staff` (issue
 * #21, "Scale") and the tests that need a realistic mix: over the two years before `now`, 15% recurring (12% monthly,
 * 3% yearly: the donation's frequency, which the list filters on; no plan rows), the five causes in turn, amounts from the presets and between them; 4% declined, 1% pending, the rest
 * succeeded with a receipt numbered per year in date order, of which 2% later refunded in full (receipt voided), 1%
 * refunded in part and 0.3% disputed; about 80% through Stripe (a twentieth of those test payments) and 20% through
 * the test gateway. Names come from 40 first and 50 last names, e-mail addresses are unique. Writes the rows as the
 * ledger would leave them (inserted pending, then moved, as the database's triggers demand), then ANALYZEs.
 */

const FIRST_NAMES = [
  'Ana', 'María', 'José', 'Luis', 'Carmen', 'Jorge', 'Sofía', 'Daniel', 'Elena', 'Pedro', 'Lucía', 'Miguel', 'Rosa',
  'Carlos', 'Isabel', 'David', 'Laura', 'Javier', 'Paula', 'Andrés', 'Emma', 'Olivia', 'Noah', 'Liam', 'Ava', 'Mia',
  'James', 'Grace', 'Henry', 'Chloe', 'Samuel', 'Zoe', 'Owen', 'Ruby', 'Isaac', 'Alice', 'Leo', 'Nora', 'Felix', 'Ivy',
];
const LAST_NAMES = [
  'García', 'Martínez', 'López', 'Hernández', 'González', 'Pérez', 'Sánchez', 'Ramírez', 'Torres', 'Flores', 'Rivera',
  'Gómez', 'Díaz', 'Reyes', 'Cruz', 'Morales', 'Ortiz', 'Gutiérrez', 'Chávez', 'Ramos', 'Smith', 'Johnson', 'Williams',
  'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor', 'Thomas', 'Moore', 'Martin', 'Jackson', 'White',
  'Harris', 'Clark', 'Lewis', 'Young', 'Walker', 'Hall', 'Allen', 'King', 'Wright', 'Scott', 'Green', 'Baker', 'Adams',
  'Nelson', 'Hill',
];

/** `ARRAY['a', 'b']` of constant words (no quote in them). */
const textArray = (words: readonly string[]) => sql.raw(`ARRAY[${words.map((word) => `'${word}'`).join(', ')}]`);

/** A per-row bucket 0..999 from the donation's id: decides its outcome, refund and dispute. */
const bucket = sql.raw(`(abs(hashtext(id::text)) % 1000)`);

/** Seeds `count` donations dated over the two years before `now` (see the module's comment). Resolves once ANALYZEd. */
export async function seedStaffDonations(db: Database, count: number, now: Date): Promise<void> {
  const minutesInTwoYears = 2 * 365 * 24 * 60;
  await db.execute(sql`
    INSERT INTO donations (amount_cents, frequency, cause, donor_name, donor_email, gateway, is_test_payment, created_at, updated_at)
    SELECT
      (ARRAY[1000, 2500, 5000, 10000, 25000])[1 + (n * 7) % 5] + CASE WHEN n % 4 = 0 THEN (n % 97) * 100 ELSE 0 END,
      CASE WHEN n % 100 < 12 THEN 'monthly' WHEN n % 100 < 15 THEN 'yearly' ELSE 'one-time' END,
      (${textArray(CAUSES)})[1 + (n * 13) % 5],
      first_name || ' ' || last_name,
      lower(first_name) || '.' || lower(last_name) || n || '@example.org',
      CASE WHEN n % 5 = 0 THEN 'test' ELSE 'stripe' END,
      n % 5 = 0 OR n % 100 = 1,
      ${now}::timestamptz - ((n * 7919) % ${minutesInTwoYears}) * interval '1 minute',
      ${now}::timestamptz - ((n * 7919) % ${minutesInTwoYears}) * interval '1 minute'
    FROM generate_series(1, ${count}) AS n,
      LATERAL (SELECT (${textArray(FIRST_NAMES)})[1 + n % ${FIRST_NAMES.length}] AS first_name,
                      (${textArray(LAST_NAMES)})[1 + (n / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}] AS last_name) AS names`);
  await db.execute(sql`UPDATE donations SET status = 'failed', decline_code = 'card_declined' WHERE status = 'pending' AND ${bucket} < 40`);
  await db.execute(sql`
    UPDATE donations SET status = 'succeeded', card_brand = 'visa', card_last4 = lpad((abs(hashtext(id::text)) % 10000)::text, 4, '0'),
      gateway_transaction_id = 'ch_bench_' || replace(id::text, '-', ''),
      payment_intent_id = CASE WHEN gateway = 'stripe' THEN 'pi_bench_' || replace(id::text, '-', '') END
    WHERE status = 'pending' AND ${bucket} >= 50`);
  await db.execute(sql`
    INSERT INTO receipts (number, donation_id, year, sequence, issued_at)
    SELECT year || '-' || lpad(sequence::text, 6, '0'), id, year, sequence, created_at
    FROM (SELECT id, created_at, extract(year FROM created_at AT TIME ZONE 'UTC')::integer AS year,
                 row_number() OVER (PARTITION BY extract(year FROM created_at AT TIME ZONE 'UTC') ORDER BY created_at, id)::integer AS sequence
          FROM donations WHERE status = 'succeeded') AS numbered`);
  await db.execute(sql`
    INSERT INTO receipt_counters (year, last_number) SELECT year, max(sequence) FROM receipts GROUP BY year
    ON CONFLICT (year) DO UPDATE SET last_number = greatest(receipt_counters.last_number, excluded.last_number)`);
  // Refunds: 2% in full (the receipt voided), 1% half; each with its refund row, as an operator's refund leaves it.
  await db.execute(sql`
    UPDATE donations SET refunded_cents = CASE WHEN ${bucket} < 70 THEN amount_cents ELSE amount_cents / 2 END,
      status = CASE WHEN ${bucket} < 70 THEN 'refunded' ELSE 'succeeded' END
    WHERE status = 'succeeded' AND ${bucket} >= 50 AND ${bucket} < 80`);
  await db.execute(sql`
    INSERT INTO donation_refunds (donation_id, amount_cents, gateway, gateway_refund_id, idempotency_key, created_at, settled_at)
    SELECT id, refunded_cents, gateway, 're_bench_' || replace(id::text, '-', ''), 'bench-refund-' || id, created_at + interval '3 days', created_at + interval '3 days'
    FROM donations WHERE refunded_cents > 0`);
  await db.execute(sql`UPDATE receipts SET voided_at = issued_at + interval '3 days' WHERE donation_id IN (SELECT id FROM donations WHERE status = 'refunded')`);
  await db.execute(sql`UPDATE donations SET status = 'disputed', dispute_status = 'needs_response' WHERE status = 'succeeded' AND ${bucket} >= 80 AND ${bucket} < 83`);
  await db.execute(sql`ANALYZE donations`);
  await db.execute(sql`ANALYZE receipts`);
}

/**
 * The recurring plans of a seeded ledger, in bulk SQL, for `npm run bench:staff` (issue #22, "the plans list"): every
 * monthly or yearly donation that was charged (succeeded, refunded or disputed: about 14% of the donations) is the
 * first gift of a plan with its amount, cause and card, anchored on its day; by a per-plan bucket, 80% are active
 * (next charge on the first date of its calendar after `now`), 5% past due (retry 1 tomorrow), 5% paused (half until a
 * date) and 10% cancelled, as the statuses' trigger allows them to be reached (inserted active, then moved). Each
 * first gift is linked to its plan as period 0. Resolves once ANALYZEd.
 */
export async function seedStaffPlans(db: Database, now: Date): Promise<void> {
  await db.execute(sql`
    INSERT INTO recurring_plans (amount_cents, frequency, cause, first_donation_id, gateway, payment_method_id, card_brand, card_last4,
      card_expiry_month, card_expiry_year, anchor_date, period, next_charge_on, next_attempt_at, is_test_payment, created_at, updated_at)
    SELECT d.amount_cents, d.frequency, d.cause, d.id, d.gateway, 'pm_bench_' || replace(d.id::text, '-', ''), 'visa', coalesce(d.card_last4, '4242'),
      1 + abs(hashtext(d.id::text)) % 12, extract(year FROM ${now}::timestamptz)::integer + 1 + abs(hashtext(d.id::text)) % 4,
      anchor, next.period, next.on_date, next.on_date::timestamptz, d.is_test_payment, d.created_at, d.created_at
    FROM donations d,
      LATERAL (SELECT (d.created_at AT TIME ZONE 'UTC')::date AS anchor) AS a,
      LATERAL (SELECT CASE WHEN d.frequency = 'monthly' THEN interval '1 month' ELSE interval '1 year' END AS unit) AS u,
      LATERAL (SELECT p AS period, (anchor + p * unit)::date AS on_date
               FROM generate_series(1, 30) AS p WHERE (anchor + p * unit)::date > (${now}::timestamptz AT TIME ZONE 'UTC')::date ORDER BY p LIMIT 1) AS next
    WHERE d.frequency IN ('monthly', 'yearly') AND d.status IN ('succeeded', 'refunded', 'disputed')`);
  const planBucket = sql.raw(`(abs(hashtext(id::text || 'plan')) % 100)`);
  await db.execute(sql`
    UPDATE recurring_plans SET status = 'past_due', retry_count = 1, past_due_since = ${now}::timestamptz - interval '1 day',
      next_attempt_at = ${now}::timestamptz + interval '1 day'
    WHERE ${planBucket} >= 80 AND ${planBucket} < 85`);
  await db.execute(sql`
    UPDATE recurring_plans SET status = 'paused', paused_until = CASE WHEN ${planBucket} < 88 THEN (${now}::timestamptz + interval '60 days')::date END
    WHERE ${planBucket} >= 85 AND ${planBucket} < 90`);
  await db.execute(sql`UPDATE recurring_plans SET status = 'cancelled' WHERE ${planBucket} >= 90`);
  await db.execute(sql`
    UPDATE donations SET recurring_plan_id = p.id, recurring_period = 0, recurring_attempt = 1
    FROM recurring_plans p WHERE p.first_donation_id = donations.id`);
  await db.execute(sql`ANALYZE recurring_plans`);
  await db.execute(sql`ANALYZE donations`);
}
