import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postDonation, type SentDonation } from '../testing/donation-burst';
import { csrfHeaders, type ServerProcess } from '../testing/server-process';
import { useServerWorkspace } from '../testing/server-workspace';
import { validSubmission } from '../testing/test-app';
import { CLUSTER_DIR_NAME } from './embedded-postgres';

/**
 * Issue #25: `npm start` typed twice on one DATA_DIR (the measured loss: the second process's brief open undid what
 * the first wrote after it). On the embedded default the second start refuses at once, names the running process, and
 * harms nothing; a SIGKILLed API leaves its PostgreSQL running and the next start adopts it; a graceful stop drains
 * the API and then stops the server (docs/decisions/0065-embedded-postgresql-server.md).
 */

const workspace = useServerWorkspace('second-start', { embedded: true });

/** Donates $25 with a key of its own, through the page's CSRF pair; resolves with what came back. */
async function donate(server: ServerProcess): Promise<SentDonation> {
  const donation: SentDonation = { key: randomUUID(), body: validSubmission({ amount: 25 }), transactionIds: new Set() };
  await postDonation(server, await csrfHeaders(server.baseUrl), donation);
  return donation;
}

describe('a second start on a running server’s DATA_DIR', () => {
  it('refuses, names the running process, harms nothing; a killed API’s server is adopted; a graceful stop stops it', { timeout: 90_000 }, async () => {
    const first = await workspace.start();
    const paid = [await donate(first)];

    // On the same port and on another: each exits 1 at once, saying who holds DATA_DIR.
    for (const PORT of [new URL(first.baseUrl).port, '0']) {
      const second = workspace.spawn({ PORT });
      const code = await new Promise<number | null>((resolve) => second.child.once('exit', resolve));
      expect(code).toBe(1);
      expect(second.stderrLines.join('\n')).toMatch(new RegExp(`in use by another server process \\(reef-donations api pid ${first.child.pid}`));
    }

    // The first keeps serving and keeping what it answers: after a SIGKILL and a restart, every gift is there.
    paid.push(await donate(first));
    expect(paid.map((answer) => answer.status)).toEqual([200, 200]);
    await first.kill();
    const restarted = await workspace.start();
    const ready = restarted.lines.find((line) => line.includes('"msg":"Database ready"')) ?? '';
    expect(JSON.parse(ready), 'the restart adopted the server the killed API left running').toMatchObject({ database: 'embedded', adopted: true });
    const client = new pg.Client({ connectionString: workspace.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>(`SELECT gateway_transaction_id AS id FROM donations WHERE status = 'succeeded'`);
      expect(rows.map((row) => row.id).sort()).toEqual(paid.flatMap((answer) => [...answer.transactionIds]).sort());
    } finally {
      await client.end();
    }

    // A graceful stop drains the API, then stops the embedded server: no postmaster left on the folder.
    expect(await restarted.stop()).toBe(0);
    await expect(stat(path.join(workspace.dataDir, CLUSTER_DIR_NAME, 'postmaster.pid'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

