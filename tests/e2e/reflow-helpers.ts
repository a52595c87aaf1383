import { expect, type Page } from '@playwright/test';

/** The smallest touch target WCAG 2.2 AA allows, in CSS px (2.5.8, Target Size (Minimum)). */
export const MIN_TARGET_PX = 24;

/** Asserts that the page does not scroll sideways (WCAG 1.4.10, Reflow). */
export async function expectNoHorizontalScroll(page: Page, state: string): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${state}: page is ${scrollWidth}px wide in a ${clientWidth}px viewport`).toBeLessThanOrEqual(clientWidth);
}

/**
 * Asserts that every visible interactive element (links, buttons, form controls, anything in the
 * tab order) is at least 24x24 CSS px. Hidden native inputs that MUI draws over are skipped.
 */
export async function expectTouchTargets(page: Page, state: string): Promise<void> {
  const small = await page.evaluate((min) => {
    const selector = 'a[href], button, input, select, textarea, [role="combobox"], [tabindex]:not([tabindex="-1"])';
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((element) => element.getAttribute('aria-hidden') !== 'true' && element.getClientRects().length > 0)
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width < min || box.height < min)
      .map(({ element, box }) => `${element.tagName.toLowerCase()} "${(element.textContent || element.getAttribute('aria-label') || element.id).trim().slice(0, 40)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
  }, MIN_TARGET_PX);
  expect(small, `${state}: targets under ${MIN_TARGET_PX}x${MIN_TARGET_PX}px`).toEqual([]);
}
