import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * The receipt PDF's fonts (issue #12; DESIGN.md, "PDF"): Noto Sans 400 and 700 from the @expo-google-fonts/noto-sans
 * package, parsed once per process by fontkit (pdfkit's font engine) and registered in every document, which embeds
 * a subset of the glyphs it uses. What fontkit and pdfkit would otherwise redo for every receipt is done once per
 * process (issue #39, decision 0118): the glyphs' outlines read for the subset, and the shaping of each word; what a
 * font parsed once must not share between documents (a glyph's code points) is kept apart.
 */

const require = createRequire(import.meta.url);

/** The families a receipt's text names (`doc.font('Body')`, `doc.font('Bold')`). */
export type PdfFontFamily = 'Body' | 'Bold';

/** Most words one family's shared layout cache keeps; past it the cache starts over. */
const MAX_CACHED_LAYOUTS = 5_000;
/** How many documents between two counts of a layout cache's words (counting walks every key). */
const DOCUMENTS_BETWEEN_COUNTS = 200;

/** A fontkit TrueType glyph as its subset reads it: `_decode()` parses its `glyf` record (outline points or components). */
interface DecodableGlyph {
  _decode?: () => unknown;
}

/** Freezes `value` and everything it holds, so code that would change it throws instead (fontkit's classes are strict mode). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as Record<string, unknown>)) deepFreeze(inner);
  }
  return value;
}

/** True when two lists of code points are the same. */
function sameCodePoints(left: readonly number[], right: readonly number[]): boolean {
  return left.length === right.length && left.every((codePoint, index) => codePoint === right[index]);
}

/** A combining mark (General_Category M: Mn, Mc, Me), as fontkit's Glyph decides `isMark` (unicode-properties' isMark). */
const MARK = /^\p{M}$/u;

/**
 * `font` as pdfkit and fontkit use it once per process (issue #39, decision 0118):
 * - each glyph's `glyf` record is parsed once: fontkit's TrueType subset (`TTFSubset._addGlyph`, run by pdfkit when a
 *   document ends) parsed the outline of every glyph the document uses, only to learn whether it is a composite glyph
 *   and where its components are, then copied the glyph's bytes as they are (0.5-0.8 ms of every receipt). The parsed
 *   record is frozen: it is read, never changed, and anything that tried would throw rather than alter another document;
 * - a glyph keeps the code points of the text it was shaped from: fontkit keeps one glyph object per id for the font's
 *   life, with the code points of its first use, and pdfkit writes a document's ToUnicode map (what copying, searching and
 *   screen readers get) from them, so with fonts parsed once per process a glyph reached from other text (the glyph of
 *   "ị" first met through an "i") carried the wrong text into later receipts. A glyph asked for with other code points is
 *   now an object of its own that inherits the first one and holds its own code points, as a font parsed for one
 *   document gives.
 */
function perProcess(font: fontkit.Font): fontkit.Font {
  const getGlyph = font.getGlyph.bind(font);
  const prepared = new WeakSet<object>();
  const variants = new WeakMap<object, Map<string, fontkit.Glyph>>();
  font.getGlyph = (glyphId, codePoints) => {
    const glyph = getGlyph(glyphId, codePoints);
    if (!prepared.has(glyph)) {
      const decodable = glyph as unknown as DecodableGlyph;
      if (typeof decodable._decode === 'function') {
        const decode = decodable._decode.bind(glyph);
        let parsed: { record: unknown } | undefined;
        decodable._decode = () => (parsed ??= { record: deepFreeze(decode()) }).record;
      }
      prepared.add(glyph);
    }
    if (codePoints === undefined || sameCodePoints(glyph.codePoints, codePoints)) return glyph;
    let byCodePoints = variants.get(glyph);
    if (!byCodePoints) variants.set(glyph, (byCodePoints = new Map()));
    const key = codePoints.join(',');
    let variant = byCodePoints.get(key);
    if (!variant) {
      variant = Object.create(glyph, {
        codePoints: { value: [...codePoints], enumerable: true },
        isMark: { value: codePoints.length > 0 && codePoints.every((codePoint) => MARK.test(String.fromCodePoint(codePoint))), enumerable: true },
        isLigature: { value: codePoints.length > 1, enumerable: true },
      }) as fontkit.Glyph;
      byCodePoints.set(key, variant);
    }
    return variant;
  };
  return font;
}

/**
 * The TrueType file of each family (TrueType, not WOFF: fontkit inflates WOFF tables in JavaScript on every read;
 * decision 0066), resolved in node_modules. Bold first: pdfkit names fonts F1, F2... in the order they are first used,
 * and the receipt's heading is bold.
 */
export const PDF_FONT_FILES: Readonly<Record<PdfFontFamily, string>> = {
  Bold: require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
  Body: require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
};

/** Parses a family's file once. */
function loadFont(family: PdfFontFamily): fontkit.Font {
  const file = PDF_FONT_FILES[family];
  const created = fontkit.create(readFileSync(file));
  if (!('layout' in created)) throw new Error(`${file}: a font file, not a collection, was expected`);
  return perProcess(created);
}

/** Noto Sans 400 and 700 (Latin, Greek, Cyrillic and Vietnamese: a donor's name in any of them prints), one parse each per process. */
const FONTS = Object.fromEntries(Object.keys(PDF_FONT_FILES).map((family) => [family, loadFont(family as PdfFontFamily)])) as Record<PdfFontFamily, fontkit.Font>;

/**
 * pdfkit's layout cache of one family, shared by every document (issue #39): pdfkit shapes text word by word
 * (`EmbeddedFont.layoutCached`: fontkit's `layout`, then the positions scaled to 1000 units) and keeps each word's
 * run in a cache that lived one document, so every receipt shaped its labels and sentences again. The cache is now one
 * object per family for the process. pdfkit never changes a cached run (it copies a position before adding word
 * spacing), and the scale is the font's own (1000 / unitsPerEm), so a run is valid in every document; same words, same
 * glyphs and positions: the PDF is unchanged.
 */
const sharedLayouts: Record<PdfFontFamily, Record<string, unknown>> = { Body: Object.create(null), Bold: Object.create(null) };
let documentsSinceCount = 0;

/** Starts a family's shared cache over when it holds more than MAX_CACHED_LAYOUTS words (counted every DOCUMENTS_BETWEEN_COUNTS documents). */
function boundLayoutCaches(): void {
  documentsSinceCount += 1;
  if (documentsSinceCount < DOCUMENTS_BETWEEN_COUNTS) return;
  documentsSinceCount = 0;
  for (const family of Object.keys(sharedLayouts) as PdfFontFamily[]) {
    if (Object.keys(sharedLayouts[family]).length > MAX_CACHED_LAYOUTS) sharedLayouts[family] = Object.create(null);
  }
}

/** What of pdfkit's document this module reaches: the font `font()` made current, an `EmbeddedFont` with its layout cache. */
interface DocumentWithEmbeddedFont {
  _font?: { layoutCache?: Record<string, unknown> };
}

/**
 * Registers Body and Bold in `doc` (a new pdfkit document, before any text) and gives each the family's shared layout
 * cache. Leaves Body the current font; every text of the receipt names its family. Throws when pdfkit does not expose
 * the embedded font's cache as this version does (`_font.layoutCache`), so an upgrade that changes it fails the tests
 * instead of silently shaping every word again.
 * NOTE: pdfkit takes a parsed fontkit font as well as bytes (PDFFontFactory.open); its types name only bytes.
 */
export function registerReceiptFonts(doc: PDFKit.PDFDocument): void {
  boundLayoutCaches();
  for (const family of Object.keys(FONTS) as PdfFontFamily[]) {
    doc.registerFont(family, FONTS[family] as unknown as Buffer);
    doc.font(family);
    const embedded = (doc as unknown as DocumentWithEmbeddedFont)._font;
    if (!embedded || typeof embedded.layoutCache !== 'object') throw new Error('pdfkit no longer keeps a layout cache on its embedded font');
    embedded.layoutCache = sharedLayouts[family];
  }
}
