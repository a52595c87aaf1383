import { plainTextSelectors, render } from '@react-email/components';
import { compile } from 'html-to-text';
import type { ReactElement } from 'react';
import { PLAIN_TEXT_OPTIONS } from './plain-text';

/**
 * The plain-text converter of every e-mail, compiled once per process (issue #39): what @react-email's
 * `render(element, { plainText: true, htmlToTextOptions: PLAIN_TEXT_OPTIONS })` passes to html-to-text's `convert`
 * (its `toPlainText`: no word wrap, its own selectors and then ours), which compiles these options again on every call.
 */
const toPlainText = compile({
  wordwrap: false,
  ...PLAIN_TEXT_OPTIONS,
  selectors: [...plainTextSelectors, ...(PLAIN_TEXT_OPTIONS.selectors ?? [])],
});

/**
 * The HTML part and the plain-text part of one React e-mail (@react-email/components), both from ONE rendering of the
 * tree, so they cannot disagree (issue #12: every message has both); the plain text reads as text, `Label: value` and
 * links on lines of their own (issue #19; PLAIN_TEXT_OPTIONS). The text is what `render(element, { plainText: true })`
 * gives, converted from the HTML part instead of a second rendering (issue #39: React rendered each e-mail twice; the
 * converter ignores the doctype, the only difference between the two HTML strings). Rejects when the tree throws
 * while rendering.
 */
export async function renderEmailParts(element: ReactElement): Promise<{ html: string; text: string }> {
  const html = await render(element);
  return { html, text: toPlainText(html) };
}
