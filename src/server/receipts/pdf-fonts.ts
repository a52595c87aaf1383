import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
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

/** A PDF object of pdfkit's (PDFReference): its dictionary, and a stream's chunks until it is written (`finalize`). */
interface PdfObject {
  data: Record<string, unknown>;
  buffer: Uint8Array[];
  end(chunk?: Uint8Array): void;
  finalize(): void;
}

/** What of pdfkit's document this module reaches: `ref()`, the PDF/A subset option, and the font `font()` made current. */
interface PdfDocumentInternals {
  ref(data?: Record<string, unknown>): PdfObject;
  subset?: unknown;
  _font?: EmbeddedFontInternals;
}

/**
 * What of pdfkit's EmbeddedFont (one family in one document) this module reaches: its fontkit font, layout cache and
 * scale, its fontkit subset (glyph ids in the order the document met them), each subset glyph's width and code points
 * (its W array and ToUnicode map), its dictionary object, `layout` (a text's glyphs, through the layout cache) and
 * `embed` (run when the document ends).
 */
interface EmbeddedFontInternals {
  document: PdfDocumentInternals;
  /** The fontkit font (for a family registered by registerReceiptFonts, the process's one). */
  font: object;
  layoutCache?: Record<string, unknown>;
  /** 1000 / the font's units per em: a glyph's advance in the PDF's text space. */
  scale: number;
  subset: { glyphs: number[]; cff?: unknown; includeGlyph(glyphId: number): number };
  /** By subset glyph id: its advance (text space) and its code points, set at its first use in the document. */
  widths: number[];
  unicode: number[][];
  dictionary: PdfObject;
  layout(text: string): { glyphs: readonly LaidOutGlyph[] };
  embed(): unknown;
}

/** A glyph as fontkit's shaping gives it: its id in the font, the text it stands for, and its advance (font units). */
interface LaidOutGlyph {
  id: number;
  codePoints: number[];
  advanceWidth: number;
}

/** The embedded font `font()` made current in `doc`; throws when pdfkit no longer keeps it where this version does. */
function currentFontOf(doc: PDFKit.PDFDocument): EmbeddedFontInternals {
  const font = (doc as unknown as PdfDocumentInternals)._font;
  if (!font || typeof font.layoutCache !== 'object' || !Array.isArray(font.subset?.glyphs) || !Array.isArray(font.widths) || typeof font.embed !== 'function') {
    throw new Error('pdfkit no longer keeps its embedded font, layout cache and subset as this version does');
  }
  return font;
}

/** ASCII's letters and digits. */
const ASCII_LETTERS_AND_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The glyphs every receipt's subset of a family starts with, in this order (decision 0122): what the receipt's changing
 * texts usually need, so that most receipts' subsets are the same glyphs and their font objects can be written from
 * the process's copy. Bold prints the organisation's name, the title and the labels: fixed texts but the receipt
 * number in the title. Body prints the donor's texts (name, amount, date, ids): ASCII, the letters and marks of Spanish
 * (the site's second language) and the typographic punctuation a name or an address holds.
 */
const SUBSET_REPERTOIRE: Readonly<Record<PdfFontFamily, string>> = {
  Bold: '0 1 2 3 4 5 6 7 8 9 -',
  Body: [...`${ASCII_LETTERS_AND_DIGITS}áéíóúüñÁÉÍÓÚÜÑ!$&'()*,-./:;?@_·‘’“”–—€`].join(' '),
};

/** Each repertoire's glyphs by fontkit font, shaped once per font (once per process for the process's fonts). */
const repertoireGlyphs = new WeakMap<object, readonly LaidOutGlyph[]>();

/**
 * Puts the glyphs of each family's repertoire (SUBSET_REPERTOIRE) first in `doc`'s subsets, as drawing those texts
 * would, before any text is drawn (decision 0122); a glyph's code points in the ToUnicode map are then the
 * repertoire's, as pdfkit keeps those of a glyph's first use in a document. Call it once the families are registered
 * (by registerReceiptFonts, or pdfkit's own registration). Leaves the last family current.
 */
export function startReceiptSubsets(doc: PDFKit.PDFDocument): void {
  for (const family of Object.keys(SUBSET_REPERTOIRE) as PdfFontFamily[]) {
    doc.font(family);
    const font = currentFontOf(doc);
    let glyphs = repertoireGlyphs.get(font.font);
    if (!glyphs) repertoireGlyphs.set(font.font, (glyphs = font.layout(SUBSET_REPERTOIRE[family]).glyphs));
    // NOTE: what pdfkit's EmbeddedFont.encode records of each glyph of a text it draws; the repertoire is not drawn.
    for (const glyph of glyphs) {
      const subsetId = font.subset.includeGlyph(glyph.id);
      font.widths[subsetId] ??= glyph.advanceWidth * font.scale;
      font.unicode[subsetId] ??= glyph.codePoints;
    }
  }
}

/**
 * The objects pdfkit writes for one font subset (EmbeddedFont.embed), kept to be written again: the font program
 * (FontFile2) and the ToUnicode map compressed as pdfkit compresses them (zlib's deflate, its default level), the
 * dictionaries as pdfkit made them (their references to the other objects are replaced when written).
 */
interface EmbeddedFontObjects {
  fontFile: Uint8Array;
  descriptor: Record<string, unknown>;
  descendant: Record<string, unknown>;
  toUnicode: Uint8Array;
  dictionary: Record<string, unknown>;
}

/** Most subsets a family's copies keep, the least recently met dropped first (a glyph outside the repertoire makes a subset of its own). */
const MAX_CACHED_SUBSETS = 32;
const embeddedObjects: Record<PdfFontFamily, Map<string, EmbeddedFontObjects>> = { Body: new Map(), Bold: new Map() };

/** What a subset's font objects are made from: its glyph ids in order, and each one's code points (the ToUnicode map). */
function subsetKey(font: EmbeddedFontInternals): string {
  return `${font.subset.glyphs.join(',')}/${font.unicode.map((codePoints) => codePoints.join(' ')).join(',')}`;
}

/**
 * Runs pdfkit's own `embed` of `font` and returns what it wrote, for the next document with the same subset. Throws
 * when pdfkit made other objects than this version does (a font program, its descriptor, the descendant font, the
 * ToUnicode map, all compressed), so an upgrade that changes them fails the tests instead of writing stale ones.
 */
function embedAndRecord(font: EmbeddedFontInternals, embed: () => unknown): EmbeddedFontObjects {
  const { document } = font;
  const made: PdfObject[] = [];
  const streams = new Map<PdfObject, Uint8Array>();
  const ref = document.ref;
  document.ref = (data) => {
    const object = ref.call(document, data);
    const finalize = object.finalize;
    // NOTE: a stream's chunks are what pdfkit compresses when it writes the object.
    object.finalize = () => {
      streams.set(object, Buffer.concat(object.buffer));
      finalize.call(object);
    };
    made.push(object);
    return object;
  };
  try {
    embed.call(font);
  } finally {
    delete (document as Partial<PdfDocumentInternals>).ref;
  }
  const [fontFile, descriptor, descendant, toUnicode] = made;
  const fontFileBytes = fontFile && streams.get(fontFile);
  const toUnicodeBytes = toUnicode && streams.get(toUnicode);
  const dictionary = font.dictionary.data;
  if (
    made.length !== 4 ||
    !fontFileBytes ||
    !toUnicodeBytes ||
    fontFile.data.Filter !== 'FlateDecode' ||
    toUnicode.data.Filter !== 'FlateDecode' ||
    descriptor?.data.FontFile2 !== fontFile ||
    descendant?.data.FontDescriptor !== descriptor ||
    (dictionary.DescendantFonts as unknown[] | undefined)?.[0] !== descendant ||
    dictionary.ToUnicode !== toUnicode
  ) {
    throw new Error('pdfkit no longer embeds a font as this version does (EmbeddedFont.embed)');
  }
  return {
    fontFile: deflateSync(fontFileBytes),
    descriptor: { ...descriptor.data },
    descendant: { ...descendant.data },
    toUnicode: deflateSync(toUnicodeBytes),
    dictionary: { ...dictionary },
  };
}

/**
 * Writes `objects` for `font` in its document: the same objects, in the same order and with the same dictionaries, as
 * pdfkit's `embed` writes for that subset, the streams already compressed (a `Filter` given when the object is made
 * tells pdfkit not to compress it again).
 */
function writeRecorded(font: EmbeddedFontInternals, objects: EmbeddedFontObjects): void {
  const { document } = font;
  const fontFile = document.ref({ Length: 0, Filter: 'FlateDecode' });
  fontFile.end(objects.fontFile);
  const descriptor = document.ref({ ...objects.descriptor, FontFile2: fontFile });
  descriptor.end();
  const descendant = document.ref({ ...objects.descendant, FontDescriptor: descriptor });
  descendant.end();
  const toUnicode = document.ref({ Length: 0, Filter: 'FlateDecode' });
  toUnicode.end(objects.toUnicode);
  font.dictionary.data = { ...objects.dictionary, DescendantFonts: [descendant], ToUnicode: toUnicode };
  font.dictionary.end();
}

/**
 * `font`'s embedding with the family's copies (issue #39, decision 0122): a subset met before (same glyphs, same code
 * points) is written from the copy, without fontkit encoding the subset, pdfkit building its ToUnicode map, or zlib
 * compressing either; a new subset is embedded by pdfkit and copied. A PDF/A document (a CIDSet) or a CFF font is left
 * to pdfkit.
 */
function embedWithCopies(family: PdfFontFamily, font: EmbeddedFontInternals, embed: () => unknown): void {
  if (font.document.subset || font.subset.cff) {
    embed.call(font);
    return;
  }
  const key = subsetKey(font);
  const copies = embeddedObjects[family];
  const objects = copies.get(key);
  if (objects) {
    // The copy moves to the end of the map: the least recently met subset goes first.
    copies.delete(key);
    copies.set(key, objects);
    writeRecorded(font, objects);
    return;
  }
  const recorded = embedAndRecord(font, embed);
  if (copies.size >= MAX_CACHED_SUBSETS) copies.delete(copies.keys().next().value as string);
  copies.set(key, recorded);
}

/**
 * Registers Body and Bold in `doc` (a new pdfkit document, before any text), gives each the family's shared layout
 * cache, and has each embedded from the family's copies of the font objects it wrote before (embedWithCopies). Leaves
 * Body the current font; every text of the receipt names its family. Throws when pdfkit does not expose the embedded
 * font's cache, subset and `embed` as this version does (currentFontOf), so an upgrade that changes them fails the
 * tests instead of silently shaping every word again.
 * NOTE: pdfkit takes a parsed fontkit font as well as bytes (PDFFontFactory.open); its types name only bytes.
 */
export function registerReceiptFonts(doc: PDFKit.PDFDocument): void {
  boundLayoutCaches();
  for (const family of Object.keys(FONTS) as PdfFontFamily[]) {
    doc.registerFont(family, FONTS[family] as unknown as Buffer);
    doc.font(family);
    const embedded = currentFontOf(doc);
    embedded.layoutCache = sharedLayouts[family];
    const embed = embedded.embed;
    embedded.embed = () => embedWithCopies(family, embedded, embed);
  }
}
