import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMailTransport, type OutgoingMail } from './transport';

/** The `.eml` transport (issue #12): a file per message in MAIL_DIR, its directory made when a write finds it missing (issue #39). */

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'eml-transport-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A message named `fileStem`. */
function message(fileStem: string, subject = 'Your receipt'): OutgoingMail {
  return { from: 'Reef <receipts@example.org>', to: 'donor@example.org', subject, text: 'Thank you.', messageId: `<${fileStem}@example.org>`, date: new Date(Date.UTC(2026, 10, 28)), fileStem };
}

describe('the .eml transport', () => {
  it('makes its directory at the first message and again after it was removed, and leaves no temporary file', async () => {
    const dir = path.join(root, 'data', 'mail');
    const transport = createMailTransport({ smtpUrl: undefined, dir });
    await transport.send(message('first'));
    expect(await readdir(dir)).toEqual(['first.eml']);
    await rm(dir, { recursive: true });
    await transport.send(message('second'));
    expect(await readdir(dir)).toEqual(['second.eml']);
    expect(await readFile(path.join(dir, 'second.eml'), 'utf8')).toMatch(/^Subject: Your receipt\r$/m);
    transport.close();
  });

  it('replaces the file of a message sent again, never adds one', async () => {
    const transport = createMailTransport({ smtpUrl: undefined, dir: root });
    await transport.send(message('same', 'First try'));
    await transport.send(message('same', 'Second try'));
    expect(await readdir(root)).toEqual(['same.eml']);
    expect(await readFile(path.join(root, 'same.eml'), 'utf8')).toMatch(/^Subject: Second try\r$/m);
    transport.close();
  });
});
