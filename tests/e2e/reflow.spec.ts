import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectNoHorizontalScroll, expectTouchTargets } from './reflow-helpers';
import { chooseDonation, expect, field, fillDonorForm, test } from './fixtures';

/** Where the screenshots a person can look at are saved (a CI artifact; never compared). */
const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

/**
 * The widths the site is checked at: 320px (WCAG 1.4.10's reflow width), 640px at twice the pixel
 * density (a 1280px window at 200% zoom lays out in 640 CSS px), and the two screenshot widths.
 */
const LAYOUTS = [
  { name: '320px', viewport: { width: 320, height: 640 }, deviceScaleFactor: 1, screenshots: false },
  { name: '200% zoom', viewport: { width: 640, height: 400 }, deviceScaleFactor: 2, screenshots: false },
  { name: '375px', viewport: { width: 375, height: 812 }, deviceScaleFactor: 1, screenshots: true },
  { name: '1280px', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, screenshots: true },
] as const;

for (const layout of LAYOUTS) {
  test.describe(`at ${layout.name}`, () => {
    test.use({ viewport: layout.viewport, deviceScaleFactor: layout.deviceScaleFactor });

    test('a donor on every screen never scrolls sideways and every target is at least 24px', async ({ page }) => {
      const check = async (screen: string) => {
        await expectNoHorizontalScroll(page, `${screen} at ${layout.name}`);
        await expectTouchTargets(page, `${screen} at ${layout.name}`);
        if (layout.screenshots) await screenshot(page, `${screen}-${layout.viewport.width}`);
      };

      await page.goto('/donate');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await check('donate');
      await page.getByRole('button', { name: 'Custom Amount' }).click();
      await page.getByRole('spinbutton', { name: 'Enter Custom Amount' }).fill('12.345');
      await expect(page.getByRole('spinbutton', { name: 'Enter Custom Amount' })).toHaveAttribute('aria-invalid', 'true');
      await check('donate-custom-amount-error');

      await chooseDonation(page, { preset: '$1,000', frequency: 'yearly', cause: 'communications-marketing' });
      await check('form');
      await field(page, 'Full Name').press('Enter');
      await expect(field(page, 'Full Name')).toHaveAttribute('aria-invalid', 'true');
      await check('form-errors');

      await fillDonorForm(page, { name: 'Maximiliano Alejandro Castellanos-Villanueva' });
      await page.getByRole('button', { name: 'Complete Donation of $1,000' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Thank You!' })).toBeVisible();
      await check('thank-you');
    });
  });
}

/** Saves a full-page screenshot as test-results/screenshots/{name}.png. */
async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
}
