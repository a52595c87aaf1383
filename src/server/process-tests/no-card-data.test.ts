import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, IDEMPOTENCY_KEY_HEADER } from '../../shared/api';
import { passesLuhn } from '../../shared/card';
import type { DonationSubmissionInput } from '../../shared/donation';
import { MIGRATIONS_FOLDER, openDatabase } from '../db/client';
import { csrfHeaders, type ServerProcess } from '../testing/server-process';
import { useServerWorkspace } from '../testing/server-workspace';
import { validSubmission } from '../testing/test-app';

/**
 * Issue #4, "No card data anywhere" (PCI DSS v4.0 requirement 3.3: no sensitive authentication data kept
 * after authorisation). The production server runs as a real process on its default database (the embedded
 * PostgreSQL server in DATA_DIR) and takes donations with distinctive card numbers and CVVs: a success,
 * a decline, a card the test gateway refuses, and one the validation rejects. Then the database is dumped
 * (every row of every table as text), and every line the server wrote (stdout and stderr), every answer and
 * every file under DATA_DIR (the cluster's tables and WAL among them) is read: none may hold a full card
 * number, a CVV as a value, or any run of 13-19 digits that passes Luhn.
 */

/** The donations sent, each with a CVV found nowhere else in this test. */
const CARDS = [
  { number: '4242424242424242', cvv: '8153', expect: 200 }, // succeeds
  { number: '4000000000000002', cvv: '6927', expect: 402 }, // declined by the gateway
  { number: '4111111111111111', cvv: '5384', expect: 402 }, // Luhn-valid but not a test card: refused in test mode
  { number: '4242424242424241', cvv: '73915', expect: 400 }, // fails Luhn and the CVV is too long: validation
] as const;

/** When the test began, in epoch milliseconds: log lines carry their time as 13 digits, which pass Luhn 1 time in 10. */
const startedAtMs = Date.now();

const workspace = useServerWorkspace('donation-card-data', { embedded: true });
let server: ServerProcess | undefined;
const answers: string[] = [];

beforeAll(async () => {
  server = await workspace.start({ LOG_LEVEL: 'debug' });
  const headers = await csrfHeaders(server.baseUrl);
  for (const [index, card] of CARDS.entries()) {
    const body: DonationSubmissionInput = validSubmission({ donorEmail: `card-donor-${index}@example.org` }, { number: card.number, cvv: card.cvv });
    const response = await fetch(`${server.baseUrl}${API_PATHS.processDonation}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      body: JSON.stringify(body),
    });
    answers.push(`${response.status} ${await response.text()}`);
  }
  // SIGTERM: the server stops its embedded PostgreSQL, whose files on disk (tables, WAL) hold everything it wrote.
  await server.stop();
}, 60_000);


/**
 * When each migration was generated, in epoch milliseconds (the journal's `when`), which the database keeps in
 * drizzle.__drizzle_migrations.created_at: 13 digits that may pass the Luhn check, and are no card number.
 */
const MIGRATION_TIMESTAMPS = readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8').then(
  (journal) => new Set((JSON.parse(journal) as { entries: Array<{ when: number }> }).entries.map((entry) => String(entry.when))),
);

/**
 * Every run of 13 to 19 digits in `text` (not part of a longer run) that passes the Luhn check, except
 * what cannot be a card number: the decimals of a fraction (pino's `responseTime: 2.38542999999936`),
 * timestamps of this test run in epoch milliseconds (pino's `time`) and the migrations' (MIGRATION_TIMESTAMPS).
 */
async function luhnRuns(text: string): Promise<string[]> {
  const migrationTimestamps = await MIGRATION_TIMESTAMPS;
  const isTimestampOfThisRun = (run: string) => Number(run) >= startedAtMs && Number(run) <= Date.now();
  return [...text.matchAll(/(?<![\d.])\d{13,19}(?!\d)/g)]
    .map((match) => match[0])
    .filter((run) => passesLuhn(run) && !isTimestampOfThisRun(run) && !migrationTimestamps.has(run));
}

/** Occurrences of `cvv` as a value of its own: not inside a longer number, a decimal, a timestamp or a hex id (UUID, hash). */
function cvvValues(text: string, cvv: string): number {
  return [...text.matchAll(new RegExp(`(?<![\\w.-])${cvv}(?![\\w.-])`, 'g'))].length;
}

/** Every file under `dir`, recursively, as [path, contents as latin1 text]. */
async function readTree(dir: string): Promise<[string, string][]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (file): Promise<[string, string]> => [file, (await readFile(file)).toString('latin1')]));
}

/** The database as text: every row of every table, as JSON, read from the embedded server of the workspace's DATA_DIR. */
async function dumpDatabase(): Promise<string> {
  const handle = await openDatabase({ dataDir: workspace.dataDir, databaseUrl: undefined });
  try {
    const query = async (statement: string) => (await handle.client.query<Record<string, string>>(statement)).rows;
    const tables = await query(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const dumps: string[] = [];
    for (const { name } of tables) {
      const rows = await query(`SELECT row_to_json(t)::text AS row FROM ${name} t`);
      dumps.push(`-- ${name}\n${rows.map((r) => r.row).join('\n')}`);
    }
    return dumps.join('\n');
  } finally {
    await handle.close();
  }
}

describe('no card data anywhere (issue #4, PCI DSS 3.3)', () => {
  it('answered each donation as expected, so every path (success, decline, refusal, invalid) ran', () => {
    expect(answers.map((answer) => Number(answer.slice(0, 3)))).toEqual(CARDS.map((card) => card.expect));
  });

  it('keeps no card number, no CVV and no Luhn-valid digit run in the database dump', async () => {
    const dump = await dumpDatabase();
    expect(dump).toContain('card-donor-0@example.org'); // the dump does hold the donations
    for (const card of CARDS) {
      expect(dump.includes(card.number), `card number ${card.number} in the dump`).toBe(false);
      expect(cvvValues(dump, card.cvv), `CVV ${card.cvv} in the dump`).toBe(0);
    }
    expect(await luhnRuns(dump)).toEqual([]);
  });

  it('writes no card number, no CVV and no Luhn-valid digit run to the log (stdout and stderr), and echoes none in an answer', async () => {
    const log = server?.lines.join('\n') ?? '';
    expect(log).toContain('"msg":"request completed"');
    for (const text of [log, server?.stderrLines.join('\n') ?? '', answers.join('\n')]) {
      for (const card of CARDS) {
        expect(text.includes(card.number), `card number ${card.number}`).toBe(false);
        expect(cvvValues(text, card.cvv), `CVV ${card.cvv}`).toBe(0);
      }
      expect(await luhnRuns(text)).toEqual([]);
    }
  });

  it('leaves no card number, no CVV and no Luhn-valid digit run in any file under DATA_DIR', async () => {
    const files = await readTree(workspace.dataDir);
    expect(files.length).toBeGreaterThan(0);
    for (const [file, text] of files) {
      for (const card of CARDS) {
        expect(text.includes(card.number), `card number ${card.number} in ${file}`).toBe(false);
        expect(cvvValues(text, card.cvv), `CVV ${card.cvv} in ${file}`).toBe(0);
      }
      expect(await luhnRuns(text), `Luhn-valid digit runs in ${file}`).toEqual([]);
    }
  });
});
