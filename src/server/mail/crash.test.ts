import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { API_PATHS } from '../../shared/api';
import { csrfHeaders } from '../testing/server-process';
import { useServerWorkspace } from '../testing/server-workspace';
import { validSubmission } from '../testing/test-app';

/**
 * Issue #12, "Crash between the donation's commit and the relay: the receipt is sent after restart, once." The
 * production server runs with a relay that, after its start-up run, waits a day; a donation commits; the server
 * is killed with SIGKILL before the relay could send; restarted on the same data, its start-up run sends the
 * receipt, exactly once.
 */

const workspace = useServerWorkspace('mail-crash');

const mailDir = () => path.join(workspace.dataDir, 'mail');
const emlFiles = async () => (await readdir(mailDir()).catch(() => [] as string[])).filter((file) => file.endsWith('.eml'));

// One relay run at start-up, then a day's wait: only a restart can send what a donation enqueued meanwhile.
const start = () => workspace.start({ MAIL_POLL_INTERVAL_MS: String(24 * 60 * 60 * 1000) });

describe('a crash between the donation commit and the relay', () => {
  it('sends the receipt after the restart, once', async () => {
    const first = await start();
    const answer = await fetch(`${first.baseUrl}${API_PATHS.processDonation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await csrfHeaders(first.baseUrl)) },
      body: JSON.stringify(validSubmission({ donorEmail: 'crash@example.org' })),
    });
    expect(answer.status).toBe(200);
    expect(await emlFiles()).toEqual([]);
    await first.kill();

    const second = await start();
    await second.waitForLine((line) => line.includes('"event":"mail.sent"'), 30_000);
    const files = await emlFiles();
    expect(files).toHaveLength(1);
    const mail = await simpleParser(await readFile(path.join(mailDir(), files[0] ?? '')));
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe('crash@example.org');
    await second.stop();

    // A third start finds nothing due: still one message.
    const third = await start();
    await third.stop();
    expect(await emlFiles()).toHaveLength(1);
  }, 120_000);
});
