import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../testing/seeded-random';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database';

/**
 * The donor_totals table the database keeps (decision 0072), now added to when a gift starts to count and recomputed
 * for every other change (migration 0029, decision 0116, issue #39): after any sequence of successes (one by one, in
 * bulk, concurrent), declines, refunds, disputes, corrected addresses, moved dates and deletions, every row is exactly
 * what a plain aggregate of the gifts gives, and what donor_totals_refresh recomputes. Raw SQL on a real PostgreSQL,
 * as the payment, refund and staff code write the gifts: the triggers are what is tested.
 */

let database: TestDatabase;
/** The test database's pool (up to 10 connections; closed with it): two transactions at once and the lock watcher. */
let pool: pg.Pool;
beforeAll(async () => {
  database = await openTestDatabase();
  pool = database.client;
});
afterAll(async () => {
  await database?.close();
});

/** A donor_totals row, every column as text (timestamps to the microsecond, cents as bigint text). */
interface TotalsRow {
  address: string;
  donor_key: string;
  first_gift_at: string;
  last_gift_at: string;
  gift_count: string;
  lifetime_cents: string;
}

const TOTALS_COLUMNS = `address, donor_key, first_gift_at::text, last_gift_at::text, gift_count::text, lifetime_cents::text`;

/** The figures of decision 0072 computed from the gifts as they are now, one row per address, in address order. */
const AGGREGATE_OF_THE_GIFTS = `
  SELECT lower(btrim(donor_email)) AS address, donor_key(donor_email) AS donor_key, min(created_at)::text AS first_gift_at,
         max(created_at)::text AS last_gift_at, count(*)::text AS gift_count,
         coalesce(sum(amount_cents - refunded_cents) FILTER (WHERE status = 'succeeded'), 0)::text AS lifetime_cents
    FROM donations WHERE status IN ('succeeded', 'refunded', 'disputed') GROUP BY 1, 2 ORDER BY 1`;

/**
 * Expects donor_totals to equal the aggregate of the gifts and, in a transaction rolled back, what donor_totals_refresh
 * recomputes for every address; `context` names the step in a failure's message. Resolves with the rows kept.
 */
async function expectExact(context: string): Promise<TotalsRow[]> {
  const client = await pool.connect();
  try {
    const { rows: kept } = await client.query<TotalsRow>(`SELECT ${TOTALS_COLUMNS} FROM donor_totals ORDER BY address`);
    const { rows: aggregate } = await client.query<TotalsRow>(AGGREGATE_OF_THE_GIFTS);
    expect(kept, `${context}: donor_totals against the aggregate of the gifts`).toEqual(aggregate);
    await client.query('BEGIN');
    try {
      await client.query(
        `SELECT donor_totals_refresh(ARRAY(SELECT address FROM donor_totals UNION SELECT lower(btrim(donor_email)) FROM donations))`,
      );
      const { rows: refreshed } = await client.query<TotalsRow>(`SELECT ${TOTALS_COLUMNS} FROM donor_totals ORDER BY address`);
      expect(kept, `${context}: donor_totals against donor_totals_refresh`).toEqual(refreshed);
    } finally {
      await client.query('ROLLBACK');
    }
    return kept;
  } finally {
    client.release();
  }
}

/** The instant `microseconds` after 2025-01-01 UTC, as SQL (created_at to the microsecond, as PostgreSQL keeps it). */
const AT_MICROSECONDS = `timestamptz '2025-01-01 00:00:00+00' + $3::bigint * interval '1 microsecond'`;

/** Writes a pending gift (as every gift starts, migration 0003) of `amountCents` from `email`, made `micros` after 2025; returns its id. */
async function pendingGift(client: pg.ClientBase | pg.Pool, email: string, amountCents: number, micros: number): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO donations (amount_cents, frequency, cause, donor_name, donor_email, card_brand, card_last4, gateway, is_test_payment, created_at)
     VALUES ($1, 'one-time', 'research-science', 'Ana Reef', $2, 'visa', '4242', 'test', true, ${AT_MICROSECONDS}) RETURNING id`,
    [amountCents, email, micros],
  );
  return rows[0]!.id;
}

/** The statement that charges the gifts `ids` (pending or declined before) in one UPDATE. */
const SUCCEED = `UPDATE donations SET status = 'succeeded', gateway_transaction_id = 'ch_' || id WHERE id = ANY ($1::uuid[])`;

/** Waits until some connection of the test database waits on a lock (a row lock or another transaction's insert). */
async function untilSomeoneWaits(): Promise<void> {
  await expect
    .poll(async () => {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
      );
      return rows[0]?.n ?? 0;
    })
    .toBeGreaterThan(0);
}

/** The donor_totals row of `address` (trimmed and lower-cased), or undefined. */
async function totalsOf(address: string): Promise<TotalsRow | undefined> {
  const { rows } = await pool.query<TotalsRow>(`SELECT ${TOTALS_COLUMNS} FROM donor_totals WHERE address = $1`, [address]);
  return rows[0];
}

describe('donor_totals after a random sequence of changes to the gifts of several donors', () => {
  it('equals the aggregate of the gifts (and the recompute) after every statement', async () => {
    const seed = 39_0116;
    const random = seededRandom(seed);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const donors = ['ana-r', 'ben-r', 'cleo-r', 'dan-r', 'eve-r'].map((name) => `${name}@example.org`);
    /** The same address as typed another way: case and spaces (one donor, decision 0072). */
    const typed = (address: string) => {
      const cased = random() < 0.3 ? address.toUpperCase() : random() < 0.5 ? address.replace(/^./, (c) => c.toUpperCase()) : address;
      return random() < 0.2 ? `  ${cased} ` : cased;
    };
    const newGift = () => pendingGift(pool, typed(pick(donors)), 100 + Math.floor(random() * 20_000), Math.floor(random() * 3e13));
    for (let i = 0; i < 30; i += 1) await newGift();

    const operations: Record<string, (gifts: Array<{ id: string; status: string; amount: number; refunded: number }>) => Promise<boolean>> = {
      pending: async () => (await newGift(), true),
      succeedOne: async (gifts) => {
        const candidates = gifts.filter((g) => g.status === 'pending' || g.status === 'failed');
        if (candidates.length === 0) return false;
        await pool.query(SUCCEED, [[pick(candidates).id]]);
        return true;
      },
      succeedInBulk: async (gifts) => {
        const candidates = gifts.filter((g) => g.status === 'pending' || g.status === 'failed').filter(() => random() < 0.5);
        if (candidates.length < 2) return false;
        await pool.query(SUCCEED, [candidates.map((g) => g.id)]);
        return true;
      },
      decline: async (gifts) => {
        const candidates = gifts.filter((g) => g.status === 'pending');
        if (candidates.length === 0) return false;
        await pool.query(`UPDATE donations SET status = 'failed', decline_code = 'card_declined' WHERE id = $1`, [pick(candidates).id]);
        return true;
      },
      refundedOrDisputedBeforeTheSuccess: async (gifts) => {
        const candidates = gifts.filter((g) => g.status === 'pending');
        if (candidates.length === 0) return false;
        const gift = pick(candidates);
        const status = random() < 0.5 ? 'refunded' : 'disputed';
        await pool.query(`UPDATE donations SET status = $2, refunded_cents = CASE WHEN $2 = 'refunded' THEN amount_cents ELSE 0 END WHERE id = $1`, [gift.id, status]);
        return true;
      },
      refundPart: async (gifts) => {
        const candidates = gifts.filter((g) => g.status === 'succeeded' && g.refunded < g.amount - 1);
        if (candidates.length === 0) return false;
        const gift = pick(candidates);
        const more = 1 + Math.floor(random() * (gift.amount - gift.refunded - 1));
        await pool.query(`UPDATE donations SET refunded_cents = refunded_cents + $2 WHERE id = $1`, [gift.id, more]);
        return true;
      },
      refundInFull: async (gifts) => {
        const candidates = gifts.filter((g) => g.status === 'succeeded' || g.status === 'disputed');
        if (candidates.length === 0) return false;
        await pool.query(`UPDATE donations SET status = 'refunded', refunded_cents = amount_cents WHERE id = $1`, [pick(candidates).id]);
        return true;
      },
      dispute: async (gifts) => {
        const candidates = gifts.filter((g) => g.status === 'succeeded');
        if (candidates.length === 0) return false;
        await pool.query(`UPDATE donations SET status = 'disputed' WHERE id = $1`, [pick(candidates).id]);
        return true;
      },
      disputeWon: async (gifts) => {
        const candidates = gifts.filter((g) => g.status === 'disputed');
        if (candidates.length === 0) return false;
        await pool.query(`UPDATE donations SET status = 'succeeded', gateway_transaction_id = 'ch_' || id WHERE id = $1`, [pick(candidates).id]);
        return true;
      },
      correctAddress: async (gifts) => {
        const candidates = gifts.filter((g) => g.status !== 'pending' && g.status !== 'failed');
        if (candidates.length === 0) return false;
        await pool.query(`UPDATE donations SET donor_email = $2 WHERE id = $1`, [pick(candidates).id, typed(pick(donors))]);
        return true;
      },
      moveDate: async (gifts) => {
        const candidates = gifts.filter((g) => g.status !== 'pending' && g.status !== 'failed');
        if (candidates.length === 0) return false;
        await pool.query(`UPDATE donations SET created_at = ${AT_MICROSECONDS.replace('$3', '$2')} WHERE id = $1`, [
          pick(candidates).id,
          Math.floor(random() * 3e13),
        ]);
        return true;
      },
      // One statement that both charges a gift and refunds another: not all adds, so recomputed.
      succeedAndRefundAtOnce: async (gifts) => {
        const pending = gifts.filter((g) => g.status === 'pending');
        const succeeded = gifts.filter((g) => g.status === 'succeeded');
        if (pending.length === 0 || succeeded.length === 0) return false;
        await pool.query(
          `UPDATE donations SET status = CASE WHEN id = $1 THEN 'succeeded' ELSE 'refunded' END,
             gateway_transaction_id = coalesce(gateway_transaction_id, 'ch_' || id),
             refunded_cents = CASE WHEN id = $1 THEN 0 ELSE amount_cents END
           WHERE id IN ($1, $2)`,
          [pick(pending).id, pick(succeeded).id],
        );
        return true;
      },
      remove: async (gifts) => {
        if (gifts.length === 0) return false;
        await pool.query(`DELETE FROM donations WHERE id = $1`, [pick(gifts).id]);
        return true;
      },
    };
    const names = Object.keys(operations);
    const done = new Map<string, number>();
    for (let step = 0; step < 240; step += 1) {
      const name = pick(names);
      const { rows } = await pool.query<{ id: string; status: string; amount: number; refunded: number }>(
        `SELECT id, status, amount_cents AS amount, refunded_cents AS refunded FROM donations WHERE donor_email ILIKE '%-r@example.org%' ORDER BY id`,
      );
      if (!(await operations[name]!(rows))) continue;
      done.set(name, (done.get(name) ?? 0) + 1);
      await expectExact(`seed ${seed}, step ${step}: ${name}`);
    }
    // Every kind of change happened (the sequence is fixed by the seed; this says it still covers them all).
    expect([...done.keys()].sort()).toEqual([...names].sort());
    const kept = await expectExact('the end');
    expect(kept.filter((row) => row.address.endsWith('-r@example.org')).length).toBeGreaterThanOrEqual(3);
  });
});

describe('a gift that starts to count', () => {
  it('adds to its donor row as it stands (an increment), while any other change recomputes the row', async () => {
    const address = 'increment@example.org';
    const [first, second, third] = [await pendingGift(pool, address, 5000, 1e12), await pendingGift(pool, address, 3000, 2e12), await pendingGift(pool, address, 700, 5e11)];
    await pool.query(SUCCEED, [[first]]);
    expect(await totalsOf(address)).toMatchObject({ gift_count: '1', lifetime_cents: '5000' });
    // A row off by a known amount (never so outside this test) shows which path a change takes.
    await pool.query(`UPDATE donor_totals SET gift_count = gift_count + 1000, lifetime_cents = lifetime_cents + 100000 WHERE address = $1`, [address]);
    await pool.query(SUCCEED, [[second]]);
    expect(await totalsOf(address)).toMatchObject({ gift_count: '1002', lifetime_cents: '108000' });
    // Refunded before it succeeded (a chargeback first): counts, adds nothing to the lifetime, and is earlier.
    await pool.query(`UPDATE donations SET status = 'refunded', refunded_cents = amount_cents WHERE id = $1`, [third]);
    const added = await totalsOf(address);
    expect(added).toMatchObject({ gift_count: '1003', lifetime_cents: '108000' });
    expect(added?.first_gift_at).toBe((await pool.query<{ at: string }>(`SELECT created_at::text AS at FROM donations WHERE id = $1`, [third])).rows[0]?.at);
    // A partial refund recomputes: the row is exact again.
    await pool.query(`UPDATE donations SET refunded_cents = 1000 WHERE id = $1`, [second]);
    expect(await totalsOf(address)).toMatchObject({ gift_count: '3', lifetime_cents: '7000' });
    await expectExact('after the increments and the recompute');
  });

  it('keeps one donor exact through 300 successes one by one', async () => {
    const address = 'three-hundred@example.org';
    const random = seededRandom(300);
    const amounts = Array.from({ length: 300 }, () => 100 + Math.floor(random() * 50_000));
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO donations (amount_cents, frequency, cause, donor_name, donor_email, card_brand, card_last4, gateway, is_test_payment, created_at)
       SELECT a, 'one-time', 'research-science', 'Ana Reef', CASE WHEN i % 3 = 0 THEN upper($2) ELSE $2 END, 'visa', '4242', 'test', true,
              timestamptz '2025-01-01 00:00:00+00' + ((i * 7919) % 300) * interval '1 hour' + i * interval '1 microsecond'
         FROM unnest($1::int[]) WITH ORDINALITY AS u(a, i) RETURNING id`,
      [amounts, address],
    );
    for (const { id } of rows) await pool.query(SUCCEED, [[id]]);
    const { rows: expected } = await pool.query<{ first: string; last: string }>(
      `SELECT min(created_at)::text AS first, max(created_at)::text AS last FROM donations WHERE lower(donor_email) = $1`,
      [address],
    );
    expect(await totalsOf(address)).toMatchObject({
      gift_count: '300',
      lifetime_cents: String(amounts.reduce((sum, amount) => sum + amount, 0)),
      first_gift_at: expected[0]?.first,
      last_gift_at: expected[0]?.last,
    });
    await expectExact('after 300 successes of one donor');
  });
});

describe('donor_totals_refresh under concurrent changes to one donor', () => {
  it("keeps the donor's row when another transaction locked it, then deleted it, before the recompute could lock it", async () => {
    const address = 'relocked@example.org';
    const only = await pendingGift(pool, address, 2200, 2e12);
    await pool.query(SUCCEED, [[only]]);
    const elsewhere = await pendingGift(pool, 'relocked-elsewhere@example.org', 800, 3e12);
    await pool.query(SUCCEED, [[elsewhere]]);
    const one = await pool.connect();
    const two = await pool.connect();
    try {
      // The first transaction holds the donor's row as a recompute does (FOR UPDATE), before its delete...
      await one.query('BEGIN');
      await one.query(`SELECT 1 FROM donor_totals WHERE address = $1 FOR UPDATE`, [address]);
      // ...while a correction moves another gift to the donor: its recompute waits for the row...
      await two.query('BEGIN');
      const moving = two.query(`UPDATE donations SET donor_email = $2 WHERE id = $1`, [elsewhere, address]);
      await untilSomeoneWaits();
      // ...which the first then deletes, with the donor's only gift, and commits.
      await one.query(`DELETE FROM donations WHERE id = $1`, [only]);
      await one.query('COMMIT');
      await moving;
      await two.query('COMMIT');
    } finally {
      one.release();
      two.release();
    }
    expect(await totalsOf(address)).toMatchObject({ gift_count: '1', lifetime_cents: '800' });
    await expectExact('a recompute after a concurrent delete of the row');
  });
});

describe('donor_totals under concurrent changes to one donor', () => {
  /**
   * Runs `first` in a transaction left open, then `second` in another (which must wait for the first's lock), commits
   * the first, then the second. Each is SQL with `$1` the gift it changes.
   */
  async function interleaved(first: { sql: string; params: unknown[] }, second: { sql: string; params: unknown[] }): Promise<void> {
    const one = await pool.connect();
    const two = await pool.connect();
    try {
      await one.query('BEGIN');
      await one.query(first.sql, first.params);
      await two.query('BEGIN');
      const waiting = two.query(second.sql, second.params);
      await untilSomeoneWaits();
      await one.query('COMMIT');
      await waiting;
      await two.query('COMMIT');
    } finally {
      one.release();
      two.release();
    }
  }

  it('counts both of two successes of a new donor on two connections', async () => {
    const address = 'two-new@example.org';
    const [a, b] = [await pendingGift(pool, address, 2500, 3e12), await pendingGift(pool, address, 4000, 1e12)];
    await interleaved({ sql: SUCCEED, params: [[a]] }, { sql: SUCCEED, params: [[b]] });
    expect(await totalsOf(address)).toMatchObject({ gift_count: '2', lifetime_cents: '6500' });
    await expectExact('two concurrent successes of a new donor');
  });

  it("counts both of two successes of a donor who gave before, and 320 changes at once on the pool's connections", async () => {
    const address = 'two-known@example.org';
    const earlier = await pendingGift(pool, address, 1000, 2e12);
    await pool.query(SUCCEED, [[earlier]]);
    const [a, b] = [await pendingGift(pool, address, 2500, 3e12), await pendingGift(pool, address, 4000, 1e12)];
    await interleaved({ sql: SUCCEED, params: [[a]] }, { sql: SUCCEED, params: [[b]] });
    expect(await totalsOf(address)).toMatchObject({ gift_count: '3', lifetime_cents: '7500' });

    // NOTE: upserts (INSERT ... ON CONFLICT) of an existing row under this load failed some statements with a unique
    // violation on donor_totals_donor_key_unique or a deadlock on a speculative insertion (decision 0116): every
    // statement must succeed.
    for (let round = 0; round < 8; round += 1) {
      const many = await Promise.all(Array.from({ length: 40 }, (_, i) => pendingGift(pool, i % 2 ? address : address.toUpperCase(), 100 + i, 4e12 - i * 1e9 - round)));
      await Promise.all(
        many.map((id, i) =>
          i % 5 === 4 ? pool.query(`UPDATE donations SET refunded_cents = $2 WHERE id = $1`, [earlier, 10 * i + round]) : pool.query(SUCCEED, [[id]]),
        ),
      );
    }
    await expectExact('8 times 40 concurrent successes and refunds of one donor');
  });

  it('adds a success after a refund of the same donor recomputed it first, and the reverse', async () => {
    const address = 'refund-and-success@example.org';
    const charged = await pendingGift(pool, address, 6000, 2e12);
    await pool.query(SUCCEED, [[charged]]);
    const [a, b] = [await pendingGift(pool, address, 2000, 3e12), await pendingGift(pool, address, 900, 1e12)];
    // The refund's recompute locks the row first; the success waits, then adds to the recomputed figures.
    await interleaved({ sql: `UPDATE donations SET refunded_cents = 1000 WHERE id = $1`, params: [charged] }, { sql: SUCCEED, params: [[a]] });
    expect(await totalsOf(address)).toMatchObject({ gift_count: '2', lifetime_cents: '7000' });
    // The success's increment locks it first; the refund's recompute waits, then sees the committed success.
    await interleaved({ sql: SUCCEED, params: [[b]] }, { sql: `UPDATE donations SET refunded_cents = 2000 WHERE id = $1`, params: [charged] });
    expect(await totalsOf(address)).toMatchObject({ gift_count: '3', lifetime_cents: '6900' });
    await expectExact('a refund and a success of one donor, both orders');
  });

  it("counts a success waiting on a correction that moves the donor's only gift away (and deletes the donor's row)", async () => {
    const address = 'moved-away@example.org';
    const only = await pendingGift(pool, address, 3000, 2e12);
    await pool.query(SUCCEED, [[only]]);
    const next = await pendingGift(pool, address, 1200, 3e12);
    await interleaved({ sql: `UPDATE donations SET donor_email = 'moved-to@example.org' WHERE id = $1`, params: [only] }, { sql: SUCCEED, params: [[next]] });
    expect(await totalsOf(address)).toMatchObject({ gift_count: '1', lifetime_cents: '1200' });
    expect(await totalsOf('moved-to@example.org')).toMatchObject({ gift_count: '1', lifetime_cents: '3000' });
    await expectExact('a success after a correction moved the only gift away');
  });
});
