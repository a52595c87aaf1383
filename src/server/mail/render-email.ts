import { plainTextSelectors } from '@react-email/components';
import { compile } from 'html-to-text';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
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

/** The doctype @react-email's `render` puts before every e-mail (XHTML 1.0 Transitional, what e-mail clients expect). */
const EMAIL_DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * The HTML part and the plain-text part of one React e-mail (@react-email/components), both from ONE rendering of the
 * tree, so they cannot disagree (issue #12: every message has both); the plain text reads as text, `Label: value` and
 * links on lines of their own (issue #19; PLAIN_TEXT_OPTIONS).
 * Issue #39: the tree is rendered with React's static renderer (`renderToStaticMarkup`, synchronous) instead of
 * @react-email's `render`, which streams it (`renderToReadableStream` inside a Suspense boundary) at four to five times
 * the CPU. The HTML is `render`'s, doctype included, without the comments only a streamed rendering writes for React's
 * own use (`<!--$-->` around the Suspense boundary, `<!-- -->` between adjacent texts, `<!--html-->`...), which no mail
 * client shows; the plain text is the same as `render(element, { plainText: true })` gives (the converter ignores
 * comments; plain-text.test.ts compares both for every template). The templates are synchronous: none suspends.
 * Rejects when the tree throws while rendering.
 */
export async function renderEmailParts(element: ReactElement): Promise<{ html: string; text: string }> {
  const html = `${EMAIL_DOCTYPE}${renderToStaticMarkup(element).replace(/<!DOCTYPE.*?>/, '')}`;
  return { html, text: toPlainText(html) };
}
