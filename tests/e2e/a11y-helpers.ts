import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The axe rule tags of WCAG 2.2 level AA (issue #5), levels A and AA of each version. */
export const WCAG_22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

/**
 * Waits until every finite CSS transition and animation running on `page` has ended, so that axe sees an element at
 * its final colours: a snackbar scanned while it fades in has its text blended with the page behind it, which axe
 * reports as too little contrast. Endless ones (a progress spinner) are not waited for; cancelled ones count as ended.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Runs axe on the page, once its transitions have ended, with the WCAG 2.2 AA rules and fails, listing each rule, its
 * help text and the offending elements, when anything is violated. `state` names the screen and
 * state in the failure message (e.g. 'form with errors').
 */
export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  await settleAnimations(page);
  const results = await new AxeBuilder({ page }).withTags([...WCAG_22_AA_TAGS]).analyze();
  const violations = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'n/a'}): ${violation.help}\n` +
      violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join('\n'),
  );
  expect(violations, `axe WCAG 2.2 AA violations on ${state}`).toEqual([]);
}
