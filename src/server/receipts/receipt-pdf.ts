import PDFDocument from 'pdfkit';
import { SOURCE_LOCALE } from '../../shared/i18n/locales';
import { serverI18n } from '../i18n/catalogues';
import type { OrganizationProfile } from '../platform/config';
import { receiptLines, taxStatementIn, type RecurringReceiptNote } from './receipt-view';
import type { ReceiptDetails } from './repository';
import { registerReceiptFonts, startReceiptSubsets } from './pdf-fonts';
import { receiptsPageUrl } from './receipt-link';

/**
 * The receipt as a tagged PDF (issue #12; DESIGN.md, "PDF"): pdfkit with `tagged: true`, a title, the language,
 * a structure tree (Document, H1, P, Table rows, a Figure with alt text for the logo), and Noto Sans embedded
 * (pdf-fonts.ts: Google Fonts' TrueType files; no system font). One page that fits A4 and US Letter alike.
 */

/** Width of A4 (595.28 pt) and height of Letter (792 pt) would each cut the other; A4 width and Letter height fit both. */
const PAGE_SIZE: [number, number] = [595.28, 792];
const MARGIN = 56;
const TEAL = '#00695c';

/** Everything one PDF needs besides the receipt: the organisation profile, the link to this PDF and the site's URL. */
export interface ReceiptPdfOptions {
  organization: OrganizationProfile;
  /**
   * The capability URL of this PDF (optional): the target of the "Download this receipt again" link, not printed (decision
   * 0121: 80 random characters nobody types from paper, read aloud character by character by a screen reader, and the
   * costliest words of the PDF to lay out, since no other receipt has them).
   */
  pdfUrl?: string;
  /** PUBLIC_URL (optional): the receipts page in the receipt's language (receiptsPageUrl) is printed and linked, what a paper copy can type. */
  publicUrl?: string;
  /**
   * Registers the families Body and Bold in a new document: the process's fonts and caches (registerReceiptFonts) by
   * default; the receipt PDF's test passes pdfkit's own registration of the font files, as the reference to compare with.
   */
  registerFonts?: (doc: PDFKit.PDFDocument) => void;
}

/** Draws the logo: a wave over a reef in teal, 40 pt high, at (x, y). */
function drawLogo(doc: PDFKit.PDFDocument, x: number, y: number): void {
  doc.save();
  doc.circle(x + 20, y + 20, 20).fill(TEAL);
  doc
    .moveTo(x + 6, y + 24)
    .bezierCurveTo(x + 12, y + 16, x + 18, y + 16, x + 20, y + 24)
    .bezierCurveTo(x + 22, y + 32, x + 28, y + 32, x + 34, y + 24)
    .lineWidth(3)
    .stroke('#ffffff');
  doc.restore();
}

/**
 * Renders the receipt as a one-page tagged PDF, in the gift's language (issue #24: the receipt's `locale`; English
 * when unknown). Resolves with its bytes. A void receipt carries a VOID line (a refund voids a receipt, never edits it;
 * issue #12).
 */
export function renderReceiptPdf(
  receipt: ReceiptDetails & Partial<RecurringReceiptNote>,
  { organization, pdfUrl, publicUrl, registerFonts = registerReceiptFonts }: ReceiptPdfOptions,
): Promise<Buffer> {
  const locale = receipt.locale ?? SOURCE_LOCALE;
  const i18n = serverI18n(locale);
  const doc = new PDFDocument({
    // NOTE: no default font (pdfkit's is Helvetica, a standard font it parses from its AFM metrics for every document,
    // and writes unembedded even when unused; issue #39): every text below names Body or Bold.
    font: null as unknown as string,
    size: PAGE_SIZE,
    margin: MARGIN,
    tagged: true,
    lang: locale,
    displayTitle: true,
    pdfVersion: '1.7',
    info: {
      Title: i18n._('pdf.receipt.title', { number: receipt.number }),
      Author: organization.legalName,
      Subject: i18n._('pdf.receipt.subject'),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  registerFonts(doc);
  startReceiptSubsets(doc);
  const width = PAGE_SIZE[0] - 2 * MARGIN;

  const root = doc.struct('Document');
  doc.addStructure(root);
  root.add(doc.struct('Figure', { alt: i18n._('pdf.receipt.logoAlt', { organization: organization.legalName }) }, () => drawLogo(doc, MARGIN, MARGIN)));
  root.add(
    doc.struct('H1', {}, () => {
      doc.font('Bold').fontSize(20).fillColor('#000000').text(organization.legalName, MARGIN + 52, MARGIN + 8, { width: width - 52 });
    }),
  );
  doc.moveDown(1.5);
  root.add(
    doc.struct('H2', {}, () => {
      doc.font('Bold').fontSize(15).fillColor(TEAL).text(i18n._('pdf.receipt.title', { number: receipt.number }), MARGIN, doc.y, { width });
    }),
  );
  if (receipt.voidedAt) {
    root.add(
      doc.struct('P', {}, () => {
        doc.font('Bold').fontSize(12).fillColor('#b71c1c').text(i18n._('pdf.receipt.void'), { width });
      }),
    );
  }
  if (receipt.isTestPayment) {
    root.add(doc.struct('P', {}, () => doc.font('Body').fontSize(10).fillColor('#7a3e00').text(i18n._('pdf.receipt.testPayment'), { width })));
  }
  doc.moveDown(0.8);

  const table = doc.struct('Table');
  root.add(table);
  for (const line of receiptLines(receipt)) {
    const row = doc.struct('TR');
    table.add(row);
    const y = doc.y;
    row.add(doc.struct('TH', {}, () => doc.font('Bold').fontSize(11).fillColor('#333333').text(line.label, MARGIN, y, { width: 150 })));
    row.add(doc.struct('TD', {}, () => doc.font('Body').fontSize(11).fillColor('#000000').text(line.value, MARGIN + 160, y, { width: width - 160 })));
    doc.moveDown(0.5);
  }
  doc.x = MARGIN;
  doc.moveDown(1);
  root.add(doc.struct('P', {}, () => doc.font('Body').fontSize(11).fillColor('#000000').text(taxStatementIn(organization, locale), MARGIN, doc.y, { width })));

  const details = [organization.address, organization.taxId ? i18n._('pdf.receipt.taxId', { taxId: organization.taxId }) : undefined].filter(Boolean).join(' · ');
  if (details) {
    doc.moveDown(1);
    root.add(doc.struct('P', {}, () => doc.font('Body').fontSize(9).fillColor('#555555').text(`${organization.legalName} · ${details}`, { width })));
  }
  // Decision 0121: two links whose texts are the same in every receipt of a language, so their words are laid out once
  // per process; the PDF's own capability URL is the first one's target, not its text.
  const pageUrl = publicUrl ? receiptsPageUrl(publicUrl, locale) : undefined;
  const links = [
    pdfUrl ? { text: i18n._('pdf.receipt.downloadAgain'), target: pdfUrl } : undefined,
    pageUrl ? { text: i18n._('pdf.receipt.getReceiptsAgain', { url: pageUrl }), target: pageUrl } : undefined,
  ].filter((link) => link !== undefined);
  if (links.length > 0) doc.moveDown(1);
  for (const { text, target } of links) {
    root.add(doc.struct('P', {}, () => doc.font('Body').fontSize(8).fillColor('#555555').text(text, { width, link: target, underline: true })));
  }
  root.end();
  doc.end();
  return done;
}
