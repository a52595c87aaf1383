import type { DomNode, FormatCallback, HtmlToTextOptions } from 'html-to-text';

/**
 * How an e-mail's plain-text part is written from its HTML (issue #19: it must read naturally: `Receipt number:
 * 2026-000002`, one labelled line a line, each link on a line of its own). @react-email's `render(..., { plainText:
 * true })` converts with html-to-text, which writes the two cells of a table row one after the other with nothing
 * between (`Receipt number2026-000002`) and a link's address after its text; these options are passed to it
 * (renderEmailParts), and templates mark their labelled lines with {@link plainTextRole} (decision 0081).
 */

/** What an element is in the plain-text part: a labelled line (a table of one row), or the label cell of one. */
export type PlainTextRole = 'line' | 'label';

const ROLE_ATTRIBUTE = 'data-plain-text';

/**
 * The attribute that gives an element its plain-text `role`, to spread on it: `<Row {...plainTextRole('line')}>`
 * becomes a line of its own, `<Column {...plainTextRole('label')}>` is followed by `: ` before the value.
 */
export function plainTextRole(role: PlainTextRole): Record<typeof ROLE_ATTRIBUTE, PlainTextRole> {
  return { [ROLE_ATTRIBUTE]: role };
}

/** The text of `node` and its descendant elements (entities decoded; comments, such as Outlook's, left out). */
function textOf(node: DomNode): string {
  if (node.type === 'text') return node.data ?? '';
  return node.type === 'tag' ? node.children.map(textOf).join('') : '';
}

/** Elements that stay on the line of the text around them (HTML's phrasing content that e-mails use). */
const INLINE_TAGS = new Set(['a', 'abbr', 'b', 'code', 'em', 'i', 'small', 'span', 'strong', 'sub', 'sup', 'u']);

/** True when text follows `node` on its line: a sibling after it, before any block (a paragraph, a table), has text. */
function textFollows(node: DomNode): boolean {
  const siblings = node.parent?.children ?? [];
  for (const sibling of siblings.slice(siblings.indexOf(node) + 1)) {
    if (sibling.type === 'tag' && !INLINE_TAGS.has(sibling.name ?? '')) return false;
    if (textOf(sibling).trim() !== '') return true;
  }
  return false;
}

/** A label cell: its text, then `: `; the value cell after it follows on the same line. */
const formatLabel: FormatCallback = (elem, walk, builder) => {
  walk(elem.children, builder);
  builder.addInline(': ');
};

/**
 * A link: its text where it has words of its own, then its address alone on the next line, so text-only mail apps
 * make it clickable whole (no `:` or `.` stuck to it); text after it in the same paragraph starts on the line after.
 * A link whose text is its address is written once, on its line.
 */
const formatLink: FormatCallback = (elem, walk, builder) => {
  const href: unknown = elem.attribs?.href;
  if (typeof href !== 'string' || href === '') {
    walk(elem.children, builder);
    return;
  }
  if (textOf(elem).trim() !== href) walk(elem.children, builder);
  builder.addLineBreak();
  builder.addInline(href, { noWordTransform: true });
  if (textFollows(elem)) builder.addLineBreak();
};

/** The html-to-text options of every e-mail's plain-text part (merged with @react-email's own selectors). */
export const PLAIN_TEXT_OPTIONS: HtmlToTextOptions = {
  formatters: { plainTextLabel: formatLabel, plainTextLink: formatLink },
  selectors: [
    { selector: 'a', format: 'plainTextLink' },
    { selector: `table[${ROLE_ATTRIBUTE}=line]`, format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: `td[${ROLE_ATTRIBUTE}=label]`, format: 'plainTextLabel' },
  ],
};
