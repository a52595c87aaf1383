import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CAUSES } from '../../shared/causes';
import { FREQUENCIES } from '../../shared/frequencies';
import type { OrganizationProfile } from '../platform/config';
import { seededRandom } from '../testing/seeded-random';
import { PDF_FONT_FILES } from './pdf-fonts';
import { renderReceiptPdf } from './receipt-pdf';
import type { ReceiptDetails } from './repository';

/**
 * The receipt PDF's per-process caches (issue #39, decision 0118: each glyph's outline parsed once, each word shaped
 * once per process; decision 0122: the font objects of a subset written from the copy of the first document that had
 * it) change nothing in a PDF: a receipt drawn among hundreds of others, names in every script the fonts carry, has
 * the bytes pdfkit gives it with the font files registered afresh.
 */

const organization = { legalName: 'Reef Trust Ltd', address: '1 Coral Street, Belize City', taxId: 'BZ-123' } as OrganizationProfile;
const NAMES = ['Ana María Pérez', 'Дмитрий Ωμέγα Nguyễn', 'Zoë O’Brien-Łukasz', 'AVATAR Tøffe', 'Đặng Thị Ánh', 'Ελένη Παπαδοπούλου', 'Wolfgang Schäffer'];

/** The receipt number `n`, its other fields drawn from `random` (names in several scripts, amounts, languages, notes). */
function receiptNumber(n: number, random: () => number): ReceiptDetails {
  const pick = <T,>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  return {
    number: `2026-${String(n).padStart(6, '0')}`,
    issuedAt: new Date(Date.UTC(2026, Math.floor(random() * 12), 1 + Math.floor(random() * 28))),
    voidedAt: random() < 0.1 ? new Date(Date.UTC(2026, 11, 1)) : null,
    donationId: `donation-${n}`,
    amountCents: 100 + Math.floor(random() * 1_000_000),
    refundedCents: random() < 0.1 ? 500 : 0,
    currency: 'USD',
    frequency: pick(FREQUENCIES),
    cause: pick(CAUSES),
    donorName: `${pick(NAMES)} ${n}`,
    donorEmail: `donor-${n}@example.org`,
    isAnonymous: random() < 0.1,
    cardBrand: 'visa',
    cardLast4: String(1000 + n).slice(-4),
    transactionId: `ch_test_${Math.floor(random() * 2 ** 40).toString(36)}`,
    isTestPayment: random() < 0.3,
    tributeType: pick(['honor', 'memory', null, null, null] as const),
    tributeHonoreeName: pick(NAMES),
    feeCoveredCents: random() < 0.2 ? 181 : 0,
    locale: pick(['en', 'es'] as const),
  };
}

/** A PDF's bytes without what records when it was made (Info's CreationDate, XMP's dates, the file ID derived from them). */
function withoutTimestamps(pdf: Buffer): string {
  return pdf
    .toString('latin1')
    .replace(/\(D:\d+Z\)/g, '')
    .replace(/<xmp:(Create|Modify|Metadata)Date>[^<]*</g, '')
    .replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/g, '');
}

/** pdfkit's own registration of the font files: each document parses them and shapes its words afresh (no cache of ours). */
function registerFontFiles(doc: PDFKit.PDFDocument): void {
  for (const [family, file] of Object.entries(PDF_FONT_FILES)) doc.registerFont(family, readFileSync(file));
}

describe('the receipt PDF', () => {
  it('has the bytes pdfkit gives without the process caches, whatever was drawn before it', async () => {
    const random = seededRandom(39);
    for (let n = 1; n <= 300; n += 1) {
      const receipt = receiptNumber(n, random);
      const options = { organization, publicUrl: 'https://give.example.org', pdfUrl: `https://give.example.org/api/receipts/pdf/${receipt.transactionId}.1764288000.${'AbC9_-'.repeat(5)}${n}` };
      const cached = await renderReceiptPdf(receipt, options);
      if (n % 10 === 0) expect(withoutTimestamps(cached), receipt.number).toBe(withoutTimestamps(await renderReceiptPdf(receipt, { ...options, registerFonts: registerFontFiles })));
    }
  });

  it('writes the font objects of a subset met before as pdfkit writes them (decision 0122)', async () => {
    const random = seededRandom(122);
    for (let n = 1; n <= 20; n += 1) {
      const receipt = { ...receiptNumber(n, random), donorName: n % 2 === 0 ? 'Zoë Łukasz' : 'Ana María Pérez' };
      const options = { organization, publicUrl: 'https://give.example.org', pdfUrl: 'https://give.example.org/api/receipts/pdf/x' };
      // The second drawing of a receipt has the first one's subsets: its font objects are written from the copies.
      await renderReceiptPdf(receipt, options);
      const again = await renderReceiptPdf(receipt, options);
      expect(withoutTimestamps(again), receipt.number).toBe(withoutTimestamps(await renderReceiptPdf(receipt, { ...options, registerFonts: registerFontFiles })));
    }
  });
});
