import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpTestServer } from '../testing/smtp-test-server';
import { createMailTransport, MAIL_SEND_CONCURRENCY, type OutgoingMail } from './transport';

/**
 * The `.eml` transport (issue #12): a file per message in MAIL_DIR, its directory made when a write finds it missing
 * (issue #39). The SMTP transport: messages over at most MAIL_SEND_CONCURRENCY pooled connections (issue #39).
 */

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

describe('the SMTP transport', () => {
  it('sends messages sent at once, refused ones included, over at most MAIL_SEND_CONCURRENCY connections it keeps open', async () => {
    const smtp = await startSmtpTestServer({ rejectRecipients: ['nobody@example.org'] });
    const transport = createMailTransport({ smtpUrl: smtp.url, dir: root });
    try {
      const sent: PromiseSettledResult<void>[] = [];
      for (let round = 0; round < 4; round += 1) {
        const messages = Array.from({ length: MAIL_SEND_CONCURRENCY }, (_, index) => {
          const stem = `round-${round}-${index}`;
          return { ...message(stem, `Receipt ${stem}`), to: index === 1 ? 'nobody@example.org' : 'donor@example.org' };
        });
        sent.push(...(await Promise.allSettled(messages.map((outgoing) => transport.send(outgoing)))));
      }
      // The refused recipient's message fails with the server's answer; the other three of each round arrive.
      expect(sent.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason.responseCode)).toEqual([550, 550, 550, 550]);
      expect(smtp.received.map((mail) => mail.subject).sort()).toEqual(
        [0, 1, 2, 3].flatMap((round) => [0, 2, 3].map((index) => `Receipt round-${round}-${index}`)).sort(),
      );
      expect(smtp.connections, 'connections opened for 16 messages').toBeLessThanOrEqual(MAIL_SEND_CONCURRENCY);
    } finally {
      transport.close();
      await smtp.close();
    }
  });

  it('delivers the message nodemailer composes, to its recipient: Message-ID, date, subject, both parts and the attachment', async () => {
    const smtp = await startSmtpTestServer();
    const transport = createMailTransport({ smtpUrl: smtp.url, dir: root });
    const pdf = Buffer.from(Array.from({ length: 50_000 }, (_, index) => (index * 7919) % 256));
    try {
      await transport.send({
        ...message('receipt-1', 'Recibo 2026-000001 — 25,00 US$'),
        to: 'Ana María <ana@example.org>',
        html: '<p>Gracias, Ana María.</p>\n<p>Ωμέγα</p>',
        text: 'Gracias, Ana María.\n.\nΩμέγα',
        attachments: [{ filename: 'receipt-2026-000001.pdf', content: pdf, contentType: 'application/pdf' }],
      });
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail).toMatchObject({ messageId: '<receipt-1@example.org>', date: new Date(Date.UTC(2026, 10, 28)), subject: 'Recibo 2026-000001 — 25,00 US$', text: 'Gracias, Ana María.\n.\nΩμέγα' });
      expect(mail?.html).toContain('<p>Ωμέγα</p>');
      expect(mail?.to).toMatchObject({ value: [{ address: 'ana@example.org', name: 'Ana María' }] });
      expect(mail?.attachments.map((attachment) => [attachment.filename, attachment.contentType, attachment.content.equals(pdf)])).toEqual([
        ['receipt-2026-000001.pdf', 'application/pdf', true],
      ]);
    } finally {
      transport.close();
      await smtp.close();
    }
  });
});
