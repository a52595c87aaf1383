import { render } from '@react-email/components';
import type { ReactElement } from 'react';
import { PLAIN_TEXT_OPTIONS } from './plain-text';

/**
 * The HTML part and the plain-text part of one React e-mail (@react-email/components), both rendered from the same
 * tree, so they cannot disagree (issue #12: every message has both); the plain text reads as text, `Label: value` and
 * links on lines of their own (issue #19; PLAIN_TEXT_OPTIONS). Rejects when the tree throws while rendering.
 */
export async function renderEmailParts(element: ReactElement): Promise<{ html: string; text: string }> {
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true, htmlToTextOptions: PLAIN_TEXT_OPTIONS })]);
  return { html, text };
}
