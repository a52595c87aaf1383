import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import { SOURCE_LOCALE } from '../../shared/i18n/locales';
import { serverI18n } from '../i18n/catalogues';
import type { OrganizationProfile } from '../platform/config';
import { receiptLines, taxStatementIn, type RecurringReceiptNote } from './receipt-view';
import type { ReceiptDetails } from './repository';

/**
 * The receipt as a tagged PDF (issue #12; DESIGN.md, "PDF"): pdfkit with `tagged: true`, a title, the language,
 * a structure tree (Document, H1, P, Table rows, a Figure with alt text for the logo), and Noto Sans embedded
 * from the @expo-google-fonts/noto-sans package (Google Fonts' TrueType files; no system font). One page that fits A4
 * and US Letter alike.
 */

const require = createRequire(import.meta.url);
/** Most words {@link withLayoutCache} keeps per font; past it the cache starts over. */
const MAX_CACHED_LAYOUTS = 5_000;

/**
 * `font` with its `layout` (fontkit's shaping of a string into glyphs and positions) remembered per process, by text
 * and features (issue #39): pdfkit lays out every word it draws, and its own cache lives one document, so each
 * receipt shaped the same labels and sentences again (OpenType lookups, a third of a receipt's CPU in the profile).
 * Each call gets positions of its own, since pdfkit scales them in place; the glyphs are fontkit's, which pdfkit only
 * reads. Same input, same glyphs and positions: the PDF is unchanged.
 */
function withLayoutCache(created: ReturnType<typeof fontkit.create>): fontkit.Font {
  if (!('layout' in created)) throw new Error('A font file, not a collection, was expected');
  const font = created;
  const layout = font.layout.bind(font) as (text: string, ...rest: unknown[]) => fontkit.GlyphRun;
  const cache = new Map<string, Pick<fontkit.GlyphRun, 'glyphs' | 'positions'>>();
  font.layout = ((text: string, ...rest: unknown[]) => {
    const key = rest.every((argument) => argument === undefined) ? text : `${text}\u0000${JSON.stringify(rest)}`;
    let run = cache.get(key);
    if (!run) {
      const fresh = layout(text, ...rest);
      run = { glyphs: fresh.glyphs, positions: fresh.positions.map((position) => ({ ...position })) };
      if (cache.size >= MAX_CACHED_LAYOUTS) cache.clear();
      cache.set(key, run);
    }
    const positions = run.positions.map((position) => ({ ...position }));
    return {
      glyphs: run.glyphs,
      positions,
      get advanceWidth() {
        return positions.reduce((width, position) => width + position.xAdvance, 0);
      },
    };
  }) as unknown as fontkit.Font['layout'];
  return font;
}

/**
 * Noto Sans 400 and 700 (Latin, Greek, Cyrillic and Vietnamese: a donor's name in any of them prints), parsed once
 * by fontkit, pdfkit's font engine, and shared by every document: each PDF subsets the glyphs it uses.
 * NOTE: TrueType, not WOFF, and parsed once: fontkit inflates a WOFF table in pure JavaScript on every read, and a
 * font registered as bytes is parsed again for every document; that made a receipt cost 0.3-1 s of the event loop
 * (issue #19's measurement of the test suite; docs/decisions/0066-test-suite-time.md). Now about 40 ms.
 */
const FONTS = {
  regular: withLayoutCache(fontkit.create(readFileSync(require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf')))),
  bold: withLayoutCache(fontkit.create(readFileSync(require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf')))),
};

/** Width of A4 (595.28 pt) and height of Letter (792 pt) would each cut the other; A4 width and Letter height fit both. */
const PAGE_SIZE: [number, number] = [595.28, 792];
const MARGIN = 56;
const TEAL = '#00695c';

/** Everything one PDF needs besides the receipt: the organisation profile and the link to this PDF. */
export interface ReceiptPdfOptions {
  organization: OrganizationProfile;
  /** The capability URL of this PDF, printed so a paper copy can find its way back (optional). */
  pdfUrl?: string;
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
export function renderReceiptPdf(receipt: ReceiptDetails & Partial<RecurringReceiptNote>, { organization, pdfUrl }: ReceiptPdfOptions): Promise<Buffer> {
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
  // NOTE: pdfkit takes a parsed fontkit font as well as bytes (PDFFontFactory.open); its types name only bytes.
  doc.registerFont('Body', FONTS.regular as unknown as Buffer);
  doc.registerFont('Bold', FONTS.bold as unknown as Buffer);
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
  if (pdfUrl) {
    doc.moveDown(1);
    root.add(
      doc.struct('P', {}, () => doc.font('Body').fontSize(8).fillColor('#555555').text(i18n._('pdf.receipt.downloadAgain', { url: pdfUrl }), { width, link: pdfUrl })),
    );
  }
  root.end();
  doc.end();
  return done;
}
