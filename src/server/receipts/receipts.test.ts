import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { DOWNLOAD_RECEIPT_LABEL } from './emails/receipt-email';
import { createReceiptLinkSigner, RECEIPT_LINK_VALID_DAYS } from './receipt-link';

/**
 * Receipts end to end through the API (issue #12): a donation's answer carries its receipt link, the link serves a
 * tagged PDF with the receipt's text, and the relay writes the receipt e-mail (HTML, text, PDF attached) into
 * MAIL_DIR as an .eml file.
 */

let t: TestApp;
let mailDir: string;
beforeAll(async () => {
  mailDir = await mkdtemp(path.join(tmpdir(), 'receipts-mail-'));
  t = await createTestApp({ env: { MAIL_DIR: mailDir, ORG_LEGAL_NAME: 'Reef Trust Ltd', ORG_TAX_ID: 'BZ-123', PUBLIC_URL: 'https://give.example.org' } });
});
afterAll(async () => {
  await t?.close();
  await rm(mailDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.reset();
});

/** Text, link targets and catalog facts of a PDF, read with pdf.js. */
async function readPdf(bytes: Buffer): Promise<{ text: string; links: string[]; marked: boolean; structRoles: string }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const page = await document.getPage(1);
  const text = (await page.getTextContent()).items.map((item) => ('str' in item ? item.str : '')).join(' ');
  const links = ((await page.getAnnotations()) as { subtype: string; url?: string }[]).flatMap((annotation) => (annotation.subtype === 'Link' && annotation.url ? [annotation.url] : []));
  const marked = (await document.getMarkInfo())?.Marked === true;
  const structRoles = JSON.stringify(await page.getStructTree());
  await document.destroy();
  return { text, links, marked, structRoles };
}

describe('a donation gets its receipt', () => {
  it('answers with a receipt link that serves the tagged PDF, private and never stored by a cache', async () => {
    const answer = await t.postDonation(validSubmission({ amount: 42.5, isAnonymous: true }));
    expect(answer.statusCode).toBe(200);
    const { receiptUrl } = answer.json<{ data: { receiptUrl: string } }>().data;
    expect(receiptUrl).toMatch(/^\/api\/receipts\/pdf\/[\w-]+\.\d+\.[\w-]{32}$/);

    const pdf = await t.app.inject({ method: 'GET', url: receiptUrl });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['cache-control']).toBe('private, no-store');
    expect(pdf.headers['content-disposition']).toMatch(/^inline; filename="receipt-\d{4}-\d{6}\.pdf"$/);

    const { text, links, marked, structRoles } = await readPdf(pdf.rawPayload);
    const year = new Date().getUTCFullYear();
    expect(text).toContain('Reef Trust Ltd');
    expect(text).toContain(`${year}-000001`);
    expect(text).toContain('$42.50 USD');
    expect(text).toContain('Ana Reef (anonymous gift)');
    expect(text).toMatch(/consult a tax advisor/);
    // Decision 0121: "Download this receipt again" links this PDF's own link, which is not printed; the receipts page,
    // which a paper copy can type, is printed and linked.
    expect(text).toContain('Download this receipt again');
    expect(text).toContain('Or get your receipts again at https://give.example.org/donate/receipts');
    expect(text).not.toContain(receiptUrl.split('/').at(-1));
    expect(links).toEqual([`https://give.example.org${receiptUrl}`, 'https://give.example.org/donate/receipts']);
    // Tagged PDF: the catalog's MarkInfo says Marked, and a StructTreeRoot gives the page its structure.
    expect(marked).toBe(true);
    expect(pdf.rawPayload.toString('latin1')).toMatch(/\/StructTreeRoot/);
    expect(structRoles).toMatch(/"role":"H1"/);
    expect(structRoles).toMatch(/"role":"Figure"/);
  });

  it('prints a donor name in Cyrillic, Greek or Vietnamese as written (the embedded font has the glyphs)', async () => {
    const answer = await t.postDonation(validSubmission({ amount: 20, donorName: 'Дмитрий Ωμέγα Nguyễn' }));
    expect(answer.statusCode).toBe(200);
    const pdf = await t.app.inject({ method: 'GET', url: answer.json<{ data: { receiptUrl: string } }>().data.receiptUrl });
    expect((await readPdf(pdf.rawPayload)).text).toContain('Дмитрий Ωμέγα Nguyễn');
  });

  it('refuses forged, altered and expired links with the same 404', async () => {
    const answer = await t.postDonation(validSubmission());
    const { receiptUrl, transactionId } = answer.json<{ data: { receiptUrl: string; transactionId: string } }>().data;
    const altered = receiptUrl.slice(0, -1) + (receiptUrl.endsWith('A') ? 'B' : 'A');
    const forged = createReceiptLinkSigner(Buffer.alloc(32, 1)).sign(transactionId, new Date());
    const past = new Date(Date.now() - (RECEIPT_LINK_VALID_DAYS + 2) * 24 * 60 * 60 * 1000);
    const expired = createReceiptLinkSigner(Buffer.alloc(32, 1)).sign(transactionId, past);
    for (const url of [altered, `/api/receipts/pdf/${forged}`, `/api/receipts/pdf/${expired}`, '/api/receipts/pdf/nothing']) {
      const refused = await t.app.inject({ method: 'GET', url });
      expect(refused.statusCode, url).toBe(404);
      expect(refused.json()).toEqual({ success: false, error: 'Not found.', code: 'not_found' });
    }
  });

  it('writes the receipt e-mail into MAIL_DIR: HTML and text parts, the PDF attached, the download link', async () => {
    const answer = await t.postDonation(validSubmission({ amount: 25 }));
    const { transactionId } = answer.json<{ data: { transactionId: string } }>().data;
    expect(await t.app.mail.relayDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await t.app.mail.relayDue()).toEqual({ sent: 0, retried: 0, failed: 0 });

    const files = (await readdir(mailDir)).filter((file) => file.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(await readFile(path.join(mailDir, files[0] ?? '')));
    expect(mail.messageId).toMatch(/^<receipt\.[0-9a-f-]{36}@give\.example\.org>$/);
    expect(mail.subject).toMatch(/^Your receipt \d{4}-\d{6}: \$25\.00 USD to Reef Trust Ltd$/);
    expect(mail.text).toContain(transactionId);
    expect(mail.text).toContain('Visa ending in 4242');
    expect(mail.html).toContain(DOWNLOAD_RECEIPT_LABEL);
    expect(mail.html).toContain('https://give.example.org/api/receipts/pdf/');
    expect(mail.html).toContain('https://give.example.org/donate/receipts');
    const [attachment] = mail.attachments;
    expect(attachment?.contentType).toBe('application/pdf');
    expect((await readPdf(attachment?.content ?? Buffer.alloc(0))).text).toContain('$25.00 USD');
  });

  it('writes a Spanish gift\'s receipt e-mail and PDF in Spanish, with 25 US$ and the Spanish pages\' links (issue #24)', async () => {
    const answer = await t.postDonation({ ...validSubmission({ amount: 25, frequency: 'monthly' }), locale: 'es' });
    expect(answer.statusCode).toBe(200);
    expect(await t.app.mail.relayDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
    // NOTE: MAIL_DIR keeps the earlier tests' messages; this gift's is the one to its donor's transaction.
    const { transactionId } = answer.json<{ data: { transactionId: string } }>().data;
    const files = (await readdir(mailDir)).filter((file) => file.endsWith('.eml'));
    const mails = await Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(mailDir, file)))));
    const mail = mails.find((candidate) => candidate.text?.includes(transactionId));
    if (!mail) throw new Error('no receipt e-mail for the Spanish gift');
    expect(mail.subject).toMatch(/^Tu recibo \d{4}-\d{6}: 25\sUS\$ para Reef Trust Ltd$/);
    expect(mail.html).toContain('¡Gracias por tu donación!');
    expect(mail.text).toContain('Visa terminada en 4242');
    expect(mail.text).toContain('Mensual');
    expect(mail.html).toContain('lang="es"');
    expect(mail.html).toContain('Descarga tu recibo (PDF)');
    expect(mail.html).toContain('https://give.example.org/es/donate/receipts');
    expect(mail.html).toMatch(/https:\/\/give\.example\.org\/es\/donate\/manage\/[\w.-]+/);
    expect(mail.html).not.toContain('Thank you');
    const pdf = await readPdf(mail.attachments[0]?.content ?? Buffer.alloc(0));
    expect(pdf.text).toMatch(/Recibo de donación \d{4}-\d{6}/);
    expect(pdf.text).toMatch(/Monto\s+25\sUS\$/);
    expect(pdf.text).toContain(`de ${new Intl.DateTimeFormat('es', { month: 'long', timeZone: 'UTC' }).format(new Date())} de`);
    expect(pdf.text).toContain('Próximo cobro');
    expect(pdf.text).not.toContain('Amount');
    expect(pdf.text).toContain('O vuelve a pedir tus recibos en https://give.example.org/es/donate/receipts');
    expect(pdf.links).toEqual([expect.stringMatching(/^https:\/\/give\.example\.org\/api\/receipts\/pdf\/[\w-]+\.\d+\.[\w-]{32}$/), 'https://give.example.org/es/donate/receipts']);
  });

  it('shows the gift, the card fee covered and the total of a donor who covered the fee, in the e-mail and the PDF (issue #23)', async () => {
    // (50.00 + 0.30) / (1 - 2.9 %) rounded up: $51.81, of which $1.81 covers the fee.
    const answer = await t.postDonation(validSubmission({ amount: 50, coverFee: true }));
    expect(answer.statusCode).toBe(200);
    expect(await t.app.mail.relayDue()).toMatchObject({ sent: 1 });
    const files = (await readdir(mailDir)).filter((file) => file.endsWith('.eml'));
    const mails = await Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(mailDir, file)))));
    const mail = mails.find((parsed) => parsed.subject?.includes('$51.81 USD'));
    expect(mail?.text).toMatch(/Amount:?\s*\$51\.81 USD/);
    expect(mail?.text).toMatch(/Gift:?\s*\$50\.00 USD/);
    expect(mail?.text).toMatch(/Card fee covered:?\s*\$1\.81 USD/);
    const pdf = await readPdf(mail?.attachments[0]?.content ?? Buffer.alloc(0));
    for (const text of ['$51.81 USD', 'Gift', '$50.00 USD', 'Card fee covered', '$1.81 USD']) expect(pdf.text).toContain(text);
  });
});
