import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { asc } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase, type DatabaseHandle } from '../db/client';
import { campaigns, donations } from '../db/schema';
import { IN_MEMORY_DATA_DIR } from '../platform/config';
import { createLogger } from '../platform/logger';
import { createEmptyTestDatabase, type CreatedTestDatabase } from '../testing/test-database';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';

/**
 * The upgrade from the CAMPAIGNS setting (issue #34: "on the first start after this change each slug it lists becomes a
 * live campaign (title = slug) once, donations keep their campaign, and a set CAMPAIGNS then logs a warning naming the
 * staff page"; decision 0101), on a database made by the code before campaigns (its migrations, and donations recorded
 * by CAMPAIGNS), started twice by the real app.
 */

/** The migrations folder without the campaigns' migration and those after it: the schema before issue #34. */
async function migrationsBeforeCampaigns(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const content = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ idx: number; tag: string }> };
  const upgrade = content.entries.find((entry) => entry.tag.endsWith('_campaigns'));
  await writeFile(journalFile, JSON.stringify({ ...content, entries: content.entries.filter((entry) => entry.idx < (upgrade?.idx ?? 0)) }));
  return folder;
}

const lines: string[] = [];
const logger = createLogger(
  { logLevel: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  }),
);

let empty: CreatedTestDatabase;
let handle: DatabaseHandle;
beforeAll(async () => {
  const before = await migrationsBeforeCampaigns();
  empty = await createEmptyTestDatabase();
  const client = new pg.Pool({ connectionString: empty.url });
  try {
    await migrate(drizzle({ client }), { migrationsFolder: before });
    // Gifts the code before issue #34 recorded: two by a slug CAMPAIGNS still lists, one by a slug it no longer lists.
    for (const [campaign, cents] of [['spring-appeal', 2500], ['spring-appeal', 1000], ['old-appeal', 4000]] as const) {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO donations (amount_cents, frequency, cause, donor_name, donor_email, gateway, is_test_payment, campaign)
         VALUES ($1, 'one-time', 'research-science', 'Ana Reef', 'ana@example.org', 'test', true, $2) RETURNING id`,
        [cents, campaign],
      );
      await client.query(
        `UPDATE donations SET status = 'succeeded', gateway_transaction_id = 'ch_' || id, card_brand = 'visa', card_last4 = '4242' WHERE id = $1`,
        [rows[0]?.id],
      );
    }
  } finally {
    await client.end();
    await rm(before, { recursive: true, force: true });
  }
  // NOTE: opening the database applies the rest of the migrations, as the server's start does.
  handle = await openDatabase({ dataDir: IN_MEMORY_DATA_DIR, databaseUrl: empty.url });
});
afterAll(async () => {
  await handle?.close();
  await empty?.drop();
});

/** Starts the real app on the upgraded database with `env`, and closes it after `check`. */
async function start(env: Record<string, string>, check: (t: TestApp) => Promise<void>) {
  lines.length = 0;
  const t = await createTestApp({ env, logger, database: () => handle.db });
  try {
    await check(t);
  } finally {
    await t.close();
  }
}

const warned = () => lines.filter((line) => line.includes('CAMPAIGNS is set') && line.includes('/staff/campaigns'));

describe('the first start after campaigns moved into the database', () => {
  it('makes each slug of CAMPAIGNS a live campaign titled with its slug, keeps the gifts their campaign, and warns', async () => {
    await start({ CAMPAIGNS: 'spring-appeal, Reef-Week' }, async (t) => {
      const rows = await handle.db.select().from(campaigns).orderBy(asc(campaigns.slug));
      expect(rows.map((row) => [row.slug, row.texts.en?.title, row.published, row.endsAt === null])).toEqual([
        ['old-appeal', 'old-appeal', true, false],
        ['reef-week', 'reef-week', true, true],
        ['spring-appeal', 'spring-appeal', true, true],
      ]);
      expect((await handle.db.select({ campaign: donations.campaign }).from(donations)).map((row) => row.campaign).sort()).toEqual([
        'old-appeal',
        'spring-appeal',
        'spring-appeal',
      ]);
      expect((await t.app.inject({ method: 'GET', url: '/api/campaigns/spring-appeal' })).json()).toMatchObject({
        title: 'spring-appeal',
        status: 'live',
        raisedCents: 3500,
        donorCount: 1,
      });
      expect((await t.app.inject({ method: 'GET', url: '/api/campaigns/old-appeal' })).json()).toMatchObject({ status: 'ended', raisedCents: 4000 });
      // A new gift by a listed campaign's link records it (live); one by the ended campaign's does not.
      await t.postDonation(validSubmission({ amount: 5, campaign: 'Reef-Week' }));
      await t.postDonation(validSubmission({ amount: 5, campaign: 'old-appeal' }));
      const newGifts = await handle.db.select({ campaign: donations.campaign, amountCents: donations.amountCents }).from(donations);
      expect(newGifts.filter((row) => row.amountCents === 500).map((row) => row.campaign ?? 'none').sort()).toEqual(['none', 'reef-week']);
      expect(warned()).toHaveLength(1);
    });
  });

  it('does it once: a later start with another CAMPAIGNS changes no campaign, and still warns while it is set', async () => {
    await start({ CAMPAIGNS: 'spring-appeal, autumn' }, async () => {
      expect((await handle.db.select({ slug: campaigns.slug }).from(campaigns)).map((row) => row.slug).sort()).toEqual([
        'old-appeal',
        'reef-week',
        'spring-appeal',
      ]);
      expect(warned()).toHaveLength(1);
    });
    await start({}, async () => {
      expect(warned()).toHaveLength(0);
    });
  });
});
