import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The axe rule tags of WCAG 2.2 level AA (issue #5), levels A and AA of each version. */
export const WCAG_22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

/**
 * Runs axe on the page as it is now with the WCAG 2.2 AA rules and fails, listing each rule, its
 * help text and the offending elements, when anything is violated. `state` names the screen and
 * state in the failure message (e.g. 'form with errors').
 */
export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags([...WCAG_22_AA_TAGS]).analyze();
  const violations = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'n/a'}): ${violation.help}\n` +
      violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join('\n'),
  );
  expect(violations, `axe WCAG 2.2 AA violations on ${state}`).toEqual([]);
}
