import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Why the focused element's focus is not visible, or null when it is: it must match :focus-visible
 * and show either an outline of 2px or more (on itself or on the MUI control that wraps it) or, for
 * a text field or select, the focused field's 2px border.
 */
export async function focusVisibilityProblem(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body || !document.hasFocus()) return 'nothing on the page is focused';
    const name = `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    if (!element.matches(':focus-visible')) return `${name} is focused but not :focus-visible`;
    const ring = element.closest('.Mui-focusVisible') ?? element;
    const ringStyle = getComputedStyle(ring);
    if (ringStyle.outlineStyle !== 'none' && parseFloat(ringStyle.outlineWidth) >= 2) return null;
    const outline = element.closest('.MuiInputBase-root.Mui-focused')?.querySelector('.MuiOutlinedInput-notchedOutline');
    if (outline && parseFloat(getComputedStyle(outline).borderTopWidth) >= 2) return null;
    return `${name} shows no focus indicator`;
  });
}

/** Asserts that the focused element shows a visible focus indicator (WCAG 2.4.7). */
export async function expectFocusVisible(page: Page): Promise<void> {
  expect(await focusVisibilityProblem(page)).toBeNull();
}

/**
 * Presses Tab until `target` has focus (at most `maxTabs` times), checking at each stop that the
 * focus is visible. Fails when the target is never reached.
 */
export async function tabTo(page: Page, target: Locator, maxTabs = 30): Promise<void> {
  for (let presses = 0; presses < maxTabs; presses += 1) {
    await page.keyboard.press('Tab');
    await expectFocusVisible(page);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target.toString()} in ${maxTabs} presses`);
}
