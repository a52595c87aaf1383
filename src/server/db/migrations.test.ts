import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyTestDatabase, openTestDatabase, type TestDatabase } from '../testing/test-database';
import { MIGRATIONS_FOLDER } from './client';
import { donations, recurringPlans, type DonationStatus, type NewDonationRow, type RecurringPlanStatus } from './schema';

/**
 * The migrations (drizzle/), applied to an empty database exactly as the server applies them at start-up
 * (issue #3: "Migrations run at start-up, are forward-only, and are tested from an empty database").
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** Rows of a raw query, whichever driver runs it. */
async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

const journal = async () =>
  (
    JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: Array<{ idx: number; tag: string; when: number }>;
    }
  ).entries;

/**
 * SHA-256 of each migration's SQL file as it was first committed, by journal tag: the hash Drizzle stores in
 * drizzle.__drizzle_migrations of every database the migration was applied to.
 * NOTE: Drizzle's migrator applies a migration only when its `when` is newer than the last applied one and never
 * looks at the hashes again, so an edit of an applied migration would reach no existing database, silently
 * leaving it with another schema than a new one. Add a line for each new migration; never change a line.
 */
const APPLIED_MIGRATION_HASHES: Record<string, string> = {
  '0000_donations': '5e33039db55899bc5ea7502e14e1a81020564e8536eb3155ef690d4fe652dfcc',
  '0001_idempotency_keys': '4b81eac04378fa9a8198d254e069954337adea8864c8bee5405a84b7bdc434ec',
  '0002_donation_status_transitions': 'd42e2e77b2ef37b7fffc5ec3c8ec1fad2d47e9cc80b5235f93d3a0a2ac36ac38',
  '0003_donation_insert_pending': '1691ae79fcf53cea20eb446735aef35a2db33b23a01d509687c3848e26eb5f97',
  '0004_receipts_and_mail_outbox': '192f8c42213d3875a61946b53aa9fa66476c6d3ce8d6383949a818e04932006d',
  '0005_payment_intents_refunds_disputes': '7a1ab9a7a7076bf6bc1c5abd2d2779e31151ee1b8130405f38aa481d68ad1778',
  '0006_recurring_plans': '4730ffa742967010918e95fe48788afe8ed6f1d55a98a6959aaf25d02abcd958',
  '0007_card_expiring_reminders': '068e0914e8d1e200683066a689a32d2f1369649e49bfdca884cb72a87fe1781f',
  '0008_operations_refunds_audit_digest': '24201158de1e7678bcb69fb3483be79006b5816b579b955a5a859feeeb9c5b93',
  '0009_renewal_payment_method': '9b27c5b90e2ab0c4aaa8fec8c27753120b3f5f1bcc03c4c6f69c56156a17023f',
  '0010_staff_identity': '48d3a82138f718c799f52c86a18a94dae3e47966e5a8635b50baafdb2528a4f8',
  '0011_staff_donations_list': '9acddd9d961244603303db4fcdfaa26e31d275ace18d960205776978acdfa9af',
  '0012_recurring_plan_changes': 'adc0745af24c5d15d43d37b903136205a5493dde33fbe63ab3e47a0db5be96fa',
  '0013_donation_tributes': '048ce697867ad762d15f3cb3a7fa7e755a26e8e293fcb1c005d82b3dd7a84f67',
  '0014_dashboard_donor_index': '2ae0bbed92e6e6517c63583a6de39655ce5d4e5a8f6c673eb93490ca06120bb9',
  '0015_campaign_and_fee_coverage': '0403d8817121354a0c41ae6eabe54ca5b5f20d6a597aced5195971d4c3af7bc5',
  '0016_staff_donors': '53b293df83960d2107f46358b571a185352f6afbd97aa681e2a6d840992db5b1',
  '0017_dashboard_donor_scan_index': '6bdb2481db827d314c0cd6a82eb37356576af8541fd33410af803128a28b7d5d',
  '0018_donor_locale': 'f3a95bab76793b55c427d47c0fdbb2a004d25261f74105ec5c7601ee5f090ac3',
  '0019_outbox_locale': 'f870b11ccfeff12241aacbf289e19a9075a7163ccd97ee355050dc8d58ad89a1',
  '0020_locale_language_tag': '1192bfdfbef6ea68b119300c756c1d340fd0cdec61dfe01f304c3b30ca0f5bbc',
  '0021_refund_life_cycle': '24a308e76bd5200166a0c429696cf5ead48335f134652ede9db2d7e537b8f63a',
  '0022_campaigns': 'e5904a4e79f0ab72532243386444daa895df1c5562d898c98c8ec269fcfcbe2a',
  '0023_campaign_supporters': '63b4f0a646605aa56a7626ff43d4410213cd7ef62af105831640b19e2e0f9b2b',
  '0024_staff_search': '53dc5f35cefd134b2bece1ef63007715b24e73b4f213b8b8d2ab119ef5599267',
  '0025_donor_notes_and_merges': 'ddea6ea38b13204640c29a361d3565c5097f228ba6ebc6148f770737b486a3f0',
  '0026_webhooks': '9b476f8314e4ca63608d8482d8777e2f865a82fb1e54f37ab9b8afb89cb21d05',
  '0027_offline_gifts': '6adf4a7022fffc0980a27626f27b2bd85fc9cffc179354fe532da35778f4087c',
  '0028_campaign_goal_reached': '4a6e41d0ad5cc0fc15335df88c376e1dc623485b0c9279fa62b098d00c0adc75',
  '0029_donor_totals_incremental': '10ff8f85e49d443ace6e805ad8f3fb4fef3c1eb918366efc1e9f09b2f6b8b7d0',
};

describe('migrations from an empty database', () => {
  it('are forward-only: one SQL file per journal entry, numbered in order, all applied once', async () => {
    const entries = await journal();
    const files = (await readdir(MIGRATIONS_FOLDER)).filter((file) => file.endsWith('.sql')).sort();
    expect(files).toEqual(entries.map((entry) => `${entry.tag}.sql`));
    expect(entries.map((entry) => entry.idx)).toEqual(entries.map((_, index) => index));
    expect(files.every((file, index) => file.startsWith(String(index).padStart(4, '0')))).toBe(true);
    const [applied] = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
    expect(applied?.n).toBe(entries.length);
  });

  it('are never edited once applied: the hash Drizzle stores for each file is the one pinned when it was added', async () => {
    const entries = await journal();
    const stored = await rows<{ hash: string; createdAt: string }>(
      sql`SELECT hash, created_at::text AS "createdAt" FROM drizzle.__drizzle_migrations ORDER BY created_at`,
    );
    const tagOf = new Map(entries.map((entry) => [String(entry.when), entry.tag]));
    const storedHashes = Object.fromEntries(stored.map((row) => [tagOf.get(row.createdAt), row.hash]));
    expect(storedHashes, 'an applied migration was edited (restore it and add a new one), or a new one is not pinned').toEqual(
      APPLIED_MIGRATION_HASHES,
    );
  });

  it('create the tables, constraints and trigger the ledger relies on', async () => {
    const tables = await rows<{ name: string }>(
      sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
    );
    expect(tables.map((t) => t.name)).toEqual(['admin_audit_log', 'campaign_supporters', 'campaigns', 'donation_refunds', 'donations', 'donor_merges', 'donor_notes', 'donor_totals', 'idempotency_keys', 'mail_outbox', 'offline_gifts', 'one_time_upgrades', 'receipt_counters', 'receipts', 'recurring_plan_changes', 'recurring_plans', 'staff_credentials', 'staff_links', 'staff_members', 'staff_sessions', 'staff_webauthn_challenges', 'webhook_attempts', 'webhook_deliveries', 'webhook_endpoints', 'webhook_events']);

    const constraints = await rows<{ name: string }>(
      sql`SELECT conname AS name FROM pg_constraint WHERE conrelid IN ('donations'::regclass, 'idempotency_keys'::regclass)`,
    );
    expect(constraints.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'donations_pkey',
        'donations_status_check',
        'donations_outcome_check',
        'donations_gateway_transaction_id_unique',
        'donations_payment_intent_id_unique',
        'donations_card_known_check',
        'idempotency_keys_pkey',
        'idempotency_keys_donation_id_unique',
        'idempotency_keys_donation_id_donations_id_fk',
        'idempotency_keys_key_check',
        'idempotency_keys_status_check',
        'idempotency_keys_completed_check',
        'idempotency_keys_expires_at_check',
      ]),
    );
    const mailConstraints = await rows<{ name: string }>(
      sql`SELECT conname AS name FROM pg_constraint WHERE conrelid IN ('mail_outbox'::regclass, 'receipts'::regclass)`,
    );
    // Issue #12: one message of a kind per donation, one receipt per donation, one number per (year, sequence).
    expect(mailConstraints.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'mail_outbox_dedupe_key_unique',
        'receipts_pkey',
        'receipts_donation_id_unique',
        'receipts_year_sequence_unique',
        'receipts_number_check',
      ]),
    );
    // One message of a kind per donation stays unique, but for a receipt staff send again (issue #21; migration 0011).
    const [kindPerDonation] = await rows<{ definition: string }>(
      sql`SELECT indexdef AS definition FROM pg_indexes WHERE tablename = 'mail_outbox' AND indexname = 'mail_outbox_kind_donation_unique'`,
    );
    expect(kindPerDonation?.definition).toMatch(/^CREATE UNIQUE INDEX mail_outbox_kind_donation_unique ON public\.mail_outbox USING btree \(kind, donation_id\) WHERE \(kind <> 'receipt_resend'::text\)$/);
    const triggers = await rows<{ name: string }>(
      sql`SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'donations'::regclass AND NOT tgisinternal ORDER BY 1`,
    );
    expect(triggers.map((t) => t.name)).toEqual(['donations_donor_totals_delete', 'donations_donor_totals_update', 'donations_status_on_insert', 'donations_status_transition']);
  });
});

describe('the donation state machine, enforced by the database', () => {
  /** Inserts a donation (pending unless `outcome` says otherwise) and returns its id. */
  const insert = async (outcome: Partial<NewDonationRow> = {}) => {
    const [row] = await database.db
      .insert(donations)
      .values({
        amountCents: 2500,
        frequency: 'one-time',
        cause: 'research-science',
        donorName: 'Ana Reef',
        donorEmail: 'ana@example.org',
        cardBrand: 'visa',
        cardLast4: '4242',
        gateway: 'test',
        isTestPayment: true,
        ...outcome,
      })
      .returning({ id: donations.id });
    return row?.id ?? '';
  };
  const setStatus = (id: string, status: DonationStatus) =>
    database.db
      .update(donations)
      .set({ status, declineCode: 'card_declined', gatewayTransactionId: `ch_test_${id}` })
      .where(eq(donations.id, id));

  it('allows only the moves of the life cycle (migration 0005): forward, never back to pending, nothing out of refunded', async () => {
    // Each path is a chain of statuses a donation may go through, then statuses it may not take from the last one.
    const paths: Array<{ moves: DonationStatus[]; refused: DonationStatus[] }> = [
      { moves: ['succeeded'], refused: ['failed', 'pending'] },
      { moves: ['failed', 'succeeded'], refused: ['failed', 'pending'] },
      { moves: ['failed'], refused: ['pending', 'refunded', 'disputed'] },
      { moves: ['succeeded', 'disputed', 'succeeded', 'refunded'], refused: ['succeeded', 'disputed', 'failed', 'pending'] },
      { moves: ['refunded'], refused: ['succeeded', 'pending'] },
      { moves: ['disputed', 'refunded'], refused: ['disputed'] },
    ];
    const expected = new Map<string, DonationStatus>();
    for (const { moves, refused } of paths) {
      const id = await insert();
      for (const status of moves) await setStatus(id, status);
      for (const status of refused) await expect(setStatus(id, status), `${moves.join(' -> ')} -> ${status}`).rejects.toThrow();
      expected.set(id, moves.at(-1) ?? 'pending');
    }
    const statuses = await database.db.select({ id: donations.id, status: donations.status }).from(donations);
    expect(new Map(statuses.map((row) => [row.id, row.status]))).toEqual(expected);
  });

  it('refuses a donation written succeeded or failed: every donation starts pending (migration 0003)', async () => {
    const count = async () => (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM donations`))[0]?.n;
    const before = await count();
    const refused = { cause: { code: '23514', message: expect.stringMatching(/a new donation is pending/) } };
    await expect(insert({ status: 'succeeded', gatewayTransactionId: 'ch_test_inserted' })).rejects.toMatchObject(refused);
    await expect(insert({ status: 'failed', declineCode: 'card_declined' })).rejects.toMatchObject(refused);
    expect(await count()).toBe(before);

    const pending = await insert({ status: 'pending' });
    const [row] = await database.db.select({ status: donations.status }).from(donations).where(eq(donations.id, pending));
    expect(row?.status).toBe('pending');
  });
});

describe('the recurring plan state machine, enforced by the database (migration 0006)', () => {
  /** Inserts a succeeded-looking first donation and its plan (active unless `status` says otherwise); returns the plan id. */
  const insertPlan = async (status?: RecurringPlanStatus) => {
    const [donation] = await database.db
      .insert(donations)
      .values({ amountCents: 3000, frequency: 'monthly', cause: 'research-science', donorName: 'Ana Reef', donorEmail: 'ana@example.org', gateway: 'test', isTestPayment: true })
      .returning({ id: donations.id });
    const [plan] = await database.db
      .insert(recurringPlans)
      .values({
        ...(status ? { status } : {}),
        amountCents: 3000,
        frequency: 'monthly',
        cause: 'research-science',
        firstDonationId: donation?.id ?? '',
        gateway: 'test',
        paymentMethodId: 'pm_test_x',
        cardBrand: 'visa',
        cardLast4: '4242',
        cardExpiryMonth: 12,
        cardExpiryYear: 2030,
        anchorDate: '2027-01-31',
        nextChargeOn: '2027-02-28',
        nextAttemptAt: new Date('2027-02-28T00:00:00Z'),
        isTestPayment: true,
      })
      .returning({ id: recurringPlans.id });
    return plan?.id ?? '';
  };
  const setStatus = (id: string, status: RecurringPlanStatus) =>
    database.db
      .update(recurringPlans)
      .set({ status, pastDueSince: status === 'past_due' ? new Date() : null })
      .where(eq(recurringPlans.id, id));

  it('allows active <-> past_due, pausing, resuming and cancelling, and nothing out of cancelled', async () => {
    const paths: Array<{ moves: RecurringPlanStatus[]; refused: RecurringPlanStatus[] }> = [
      { moves: ['past_due', 'active', 'paused', 'active'], refused: [] },
      { moves: ['past_due', 'paused'], refused: ['past_due'] },
      { moves: ['paused', 'cancelled'], refused: ['active', 'paused', 'past_due'] },
      { moves: ['past_due', 'cancelled'], refused: ['active'] },
      { moves: ['cancelled'], refused: ['active', 'past_due', 'paused'] },
    ];
    for (const { moves, refused } of paths) {
      const id = await insertPlan();
      for (const status of moves) await setStatus(id, status);
      for (const status of refused) await expect(setStatus(id, status), `${moves.join(' -> ')} -> ${status}`).rejects.toThrow();
      const [row] = await database.db.select({ status: recurringPlans.status }).from(recurringPlans).where(eq(recurringPlans.id, id));
      expect(row?.status).toBe(moves.at(-1));
    }
  });

  it('refuses a plan written other than active', async () => {
    for (const status of ['past_due', 'paused', 'cancelled'] as const) {
      await expect(insertPlan(status)).rejects.toMatchObject({ cause: { code: '23514', message: expect.stringMatching(/a new plan is active/) } });
    }
  });
});

/** The migrations folder as it was with the journal's entries up to `lastIdx`, in a temporary folder. */
async function migrationsUpTo(lastIdx: number): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const content = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ idx: number }> };
  await writeFile(journalFile, JSON.stringify({ ...content, entries: content.entries.filter((entry) => entry.idx <= lastIdx) }));
  return folder;
}

/**
 * Runs `test` on an empty database of its own (not a copy of the migrated template: it is migrated only part of the way)
 * migrated up to the journal's entry `lastIdx`; `migrateToLatest` applies the rest. The database and the folder go after.
 */
async function onDatabaseMigratedTo(lastIdx: number, test: (client: pg.Pool, migrateToLatest: () => Promise<void>) => Promise<void>): Promise<void> {
  const folder = await migrationsUpTo(lastIdx);
  const empty = await createEmptyTestDatabase();
  const client = new pg.Pool({ connectionString: empty.url });
  client.on('error', () => undefined);
  try {
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: folder });
    await test(client, async () => void (await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER })));
  } finally {
    await client.end();
    await empty.drop();
    await rm(folder, { recursive: true, force: true });
  }
}

/** Writes a one-time gift of `amountCents` from `email` and charges it (succeeded, with its transaction id), in raw SQL; resolves with its id. */
async function chargedGift(client: pg.Pool, email = 'ana@example.org', amountCents = 4000): Promise<string> {
  const {
    rows: [row],
  } = await client.query<{ id: string }>(
    `INSERT INTO donations (amount_cents, frequency, cause, donor_name, donor_email, card_brand, card_last4, gateway, is_test_payment)
     VALUES ($1, 'one-time', 'research-science', 'Ana Reef', $2, 'visa', '4242', 'stripe', false) RETURNING id`,
    [amountCents, email],
  );
  const id = row?.id ?? '';
  await client.query(`UPDATE donations SET status = 'succeeded', gateway_transaction_id = 'ch_' || id WHERE id = $1`, [id]);
  return id;
}

describe('migration 0008 on a database that holds gifts already', () => {
  it('counts a gift refunded before it as refunded in full (refunded_cents), and nothing refunded of the others', async () => {
    await onDatabaseMigratedTo(7, async (client, migrateToLatest) => {
      const refundedId = await chargedGift(client);
      await client.query(`UPDATE donations SET status = 'refunded' WHERE id = $1`, [refundedId]);
      const keptId = await chargedGift(client);

      await migrateToLatest();

      const { rows: after } = await client.query<{ id: string; refunded_cents: number }>(`SELECT id, refunded_cents FROM donations`);
      expect(Object.fromEntries(after.map((row) => [row.id, row.refunded_cents]))).toEqual({ [refundedId]: 4000, [keptId]: 0 });
    });
  });
});

describe('migration 0021 on a database that holds refunds already', () => {
  it('keeps every refund recorded before it as succeeded, settled when it was written (decision 0095)', async () => {
    await onDatabaseMigratedTo(20, async (client, migrateToLatest) => {
      const id = await chargedGift(client);
      await client.query(`UPDATE donations SET refunded_cents = 1500 WHERE id = $1`, [id]);
      await client.query(
        `INSERT INTO donation_refunds (donation_id, amount_cents, gateway, gateway_refund_id, idempotency_key, created_at)
         VALUES ($1, 1500, 'stripe', 're_before_0021', 'key-before-0021', '2026-05-01T10:00:00Z')`,
        [id],
      );

      await migrateToLatest();

      const { rows } = await client.query<{ status: string; settled: boolean }>(`SELECT status, settled_at = created_at AS settled FROM donation_refunds`);
      expect(rows).toEqual([{ status: 'succeeded', settled: true }]);
      // A pending refund has no settlement and no gateway refund id yet; a succeeded one must have both.
      await client.query(
        `INSERT INTO donation_refunds (donation_id, amount_cents, gateway, idempotency_key, gateway_idempotency_key, status) VALUES ($1, 500, 'stripe', 'k2', 'g2', 'pending')`,
        [id],
      );
      await expect(
        client.query(`INSERT INTO donation_refunds (donation_id, amount_cents, gateway, idempotency_key, status, settled_at) VALUES ($1, 500, 'stripe', 'k3', 'succeeded', now())`, [id]),
      ).rejects.toThrow(/donation_refunds_settlement_check/);
    });
  });
});

describe('migration 0029 on a database that holds donors already', () => {
  it('recomputes every donor once, so that increments start from exact rows (decision 0116)', async () => {
    await onDatabaseMigratedTo(28, async (client, migrateToLatest) => {
      await chargedGift(client, 'lost@example.org', 4000);
      await chargedGift(client, 'off@example.org', 2500);
      await chargedGift(client, 'Off@Example.org', 1000);
      // Rows as migration 0016's lock gap (decision 0116) could leave them: one lost, one off.
      await client.query(`DELETE FROM donor_totals WHERE address = 'lost@example.org'`);
      await client.query(`UPDATE donor_totals SET gift_count = 7, lifetime_cents = 1 WHERE address = 'off@example.org'`);

      await migrateToLatest();

      const { rows } = await client.query<{ address: string; gifts: number; lifetime: string }>(
        `SELECT address, gift_count AS gifts, lifetime_cents::text AS lifetime FROM donor_totals ORDER BY address`,
      );
      expect(rows).toEqual([
        { address: 'lost@example.org', gifts: 1, lifetime: '4000' },
        { address: 'off@example.org', gifts: 2, lifetime: '3500' },
      ]);
    });
  });
});
