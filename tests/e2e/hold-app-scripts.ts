import type { Page } from '@playwright/test';

/**
 * Holds back the app's JavaScript (the built chunks under /assets/) until the returned function is called,
 * so that whatever a test does before then surely happens before the app is live (decision 0023).
 */
export async function holdAppScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
