import type { Browser, Page } from '@playwright/test';
import { PRERENDERED_PATH_ATTRIBUTE } from '../../src/shared/prerendered-pages';
import { expect, test, waitForApp } from './fixtures';
import { holdAppScripts } from './hold-app-scripts';
import { openSlowTab, type SlowTab } from './slow-tab';

/** Lighthouse's mobile profile (and issue #10's): a phone 4x slower than this machine on a slow 4G link. */
const PHONE = {
  viewport: { width: 390, height: 844 },
  cpuSlowdown: 4,
  network: { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
};

/**
 * A new visitor's tab on the phone of {@link PHONE}: a fresh context (empty cache and storage, so nothing is
 * restored from an earlier run), its CPU and network throttled through the Chrome DevTools Protocol. Returns the
 * page and the errors it logs (hydration mismatches included), which must stay none.
 */
function openPhoneTab(browser: Browser): Promise<SlowTab> {
  return openSlowTab(browser, { cpuSlowdown: PHONE.cpuSlowdown, network: PHONE.network, viewport: PHONE.viewport });
}

/** Whether the landing screen is still the pre-rendered markup, the app not yet live (decision 0021). */
async function appIsNotLiveYet(page: Page): Promise<boolean> {
  return (await page.locator(`#root[${PRERENDERED_PATH_ATTRIBUTE}]`).count()) === 1;
}

/**
 * Choices made on /donate between its first paint and the end of hydration count (issue #10, part 1;
 * decision 0023). Each test navigates without the fixture's `page.goto`, which waits for the app.
 */
test.describe('a donor who chooses before the app is live', () => {
  // NOTE: five new visitors, one test each, so that Playwright's workers share them: most of a run's time is the
  // emulated phone's CPU and network waiting (issue #19).
  for (let run = 1; run <= 5; run++) {
    test(`on a phone, a donor who taps $50, Monthly and a cause the moment they appear finds them chosen and continues to $50 monthly, run ${run} of 5`, async ({
      browser,
    }) => {
      const { page, errors, close } = await openPhoneTab(browser);
      try {
        // NOTE: the app's scripts are held until the first tap has landed, so that tap surely meets the pre-rendered
        // markup however fast the machine is (on a loaded CI machine Playwright's click once came after hydration).
        // The next two taps race the hydration that the release starts, as a donor's would.
        const releaseApp = await holdAppScripts(page);
        await page.goto('/donate', { waitUntil: 'commit' });
        await page.getByRole('button', { name: '$50', exact: true }).click();
        expect(await appIsNotLiveYet(page), 'the $50 tap came before the app was live').toBe(true);
        releaseApp();
        await page.getByRole('button', { name: 'Monthly' }).click();
        await page.getByRole('button', { name: 'Research and Science' }).click();

        await waitForApp(page);
        await expect(page.getByRole('button', { name: '$50', exact: true })).toHaveAttribute('aria-pressed', 'true');
        await expect(page.getByRole('button', { name: '$25', exact: true })).toHaveAttribute('aria-pressed', 'false');
        await expect(page.getByRole('button', { name: 'Monthly' })).toHaveAttribute('aria-pressed', 'true');
        await expect(page.getByRole('button', { name: 'One-time Gift' })).toHaveAttribute('aria-pressed', 'false');
        await expect(page.getByRole('button', { name: 'Research and Science' })).toHaveAttribute('aria-pressed', 'true');
        await expect(page.getByText(/^Your \$/)).toHaveText('Your $50 monthly donation can help protect Research and Science');

        await page.getByRole('button', { name: 'Continue to Donation' }).click();
        await expect(page).toHaveURL(/\/donate\/form$/);
        await expect(page.getByRole('region', { name: 'Donation summary' })).toContainText('$50 monthly');
        await expect(page.getByRole('region', { name: 'Donation summary' })).toContainText('Research and Science');
        expect(errors, 'the page logged errors').toEqual([]);
      } finally {
        await close();
      }
    });
  }

  test('a donor who opens Custom Amount, closes and reopens it and types 12.50 before the app is live finds the field as they left it once it is live', async ({
    browser,
  }) => {
    const { page, errors, close } = await openPhoneTab(browser);
    try {
      const releaseApp = await holdAppScripts(page);
      await page.goto('/donate', { waitUntil: 'commit' });
      const customAmount = page.getByRole('button', { name: 'Custom Amount' });
      const customField = page.getByRole('spinbutton', { name: 'Enter Custom Amount' });
      // Opened, closed (a second tap is neither lost nor replayed twice), then opened again.
      await customAmount.click();
      await expect(customField).toBeVisible();
      await customAmount.click();
      await expect(customField).toBeHidden();
      await expect(customAmount).toHaveAttribute('aria-pressed', 'false');
      await customAmount.click();
      await expect(customField).toBeFocused();
      await customField.pressSequentially('12.50');
      await page.getByRole('button', { name: 'Yearly' }).click();
      expect(await appIsNotLiveYet(page), 'every tap came before the app was live').toBe(true);

      releaseApp();
      await waitForApp(page);
      await expect(customAmount).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByRole('button', { name: '$25', exact: true })).toHaveAttribute('aria-pressed', 'false');
      await expect(customField).toHaveValue('12.50');
      await expect(page.getByRole('button', { name: 'Yearly' })).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByText(/^Your \$/)).toHaveText('Your $12.50 yearly donation can help protect educational programs for local communities');
      // No cause was chosen: the app keeps Continue disabled.
      await expect(page.getByRole('button', { name: 'Continue to Donation' })).toBeDisabled();
      expect(errors, 'the page logged errors').toEqual([]);
    } finally {
      await close();
    }
  });

  test('a donor who types a custom amount, picks a cause and presses Continue before the app is live lands on the form as soon as it is', async ({
    browser,
  }) => {
    const { page, errors, close } = await openPhoneTab(browser);
    try {
      const releaseApp = await holdAppScripts(page);
      await page.goto('/donate', { waitUntil: 'commit' });
      await page.getByRole('button', { name: 'Custom Amount' }).click();
      await page.getByRole('spinbutton', { name: 'Enter Custom Amount' }).pressSequentially('30');
      await page.getByRole('button', { name: 'Education and Outreach' }).click();
      await page.getByRole('button', { name: 'Continue to Donation' }).click();
      expect(await appIsNotLiveYet(page), 'every tap came before the app was live').toBe(true);

      releaseApp();
      await expect(page).toHaveURL(/\/donate\/form$/);
      await expect(page.getByRole('region', { name: 'Donation summary' })).toContainText('$30 one-time');
      await expect(page.getByRole('region', { name: 'Donation summary' })).toContainText('Education and Outreach');
      expect(errors, 'the page logged errors').toEqual([]);
    } finally {
      await close();
    }
  });

  test('a donor who types an amount below the minimum and presses Continue before the app is live stays on the screen and is told why', async ({
    browser,
  }) => {
    const { page, errors, close } = await openPhoneTab(browser);
    try {
      const releaseApp = await holdAppScripts(page);
      await page.goto('/donate', { waitUntil: 'commit' });
      await page.getByRole('button', { name: 'Custom Amount' }).click();
      await page.getByRole('spinbutton', { name: 'Enter Custom Amount' }).pressSequentially('0.5');
      await page.getByRole('button', { name: 'Research and Science' }).click();
      // The markup cannot judge the amount: it lets the donor press Continue, and the app decides.
      await page.getByRole('button', { name: 'Continue to Donation' }).click();
      expect(await appIsNotLiveYet(page), 'every tap came before the app was live').toBe(true);

      releaseApp();
      await waitForApp(page);
      await expect(page.getByRole('spinbutton', { name: 'Enter Custom Amount' })).toHaveAccessibleDescription('The minimum donation is $1');
      await expect(page.getByRole('button', { name: 'Continue to Donation' })).toBeDisabled();
      await expect(page).toHaveURL(/\/donate$/);
      expect(errors, 'the page logged errors').toEqual([]);
    } finally {
      await close();
    }
  });
});
