import { render } from '@react-email/components';
import type { ReactElement } from 'react';

/**
 * The HTML part and the plain-text part of one React e-mail (@react-email/components), both rendered from the same
 * tree, so they cannot disagree (issue #12: every message has both). Rejects when the tree throws while rendering.
 */
export async function renderEmailParts(element: ReactElement): Promise<{ html: string; text: string }> {
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { html, text };
}
