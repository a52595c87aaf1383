import type { Browser } from '@playwright/test';
import { formatDollars } from '../../src/shared/money';
import { SESSION_KEYS } from '../../src/web/state/session-store';
import { expect, test } from './fixtures';
import { openSlowTab } from './slow-tab';

/**
 * The lost-tap bar of issue #20 (quick-taps.spec.ts) on the Spanish landing screen (issue #24: both languages'
 * /donate meet the same bars): a donor taps `50 US$`, `Mensual`, `Investigación y Ciencia` and `Continuar con la
 * donación`, each as soon as it is clickable, with no wait of the test's own, and reaches /es/donate/form with those
 * choices, each counted once. Fewer repetitions than the English suite, which covers the same code at length.
 * NOTE: a new context (empty cache and storage) per repetition: every repetition is a new visitor.
 */

/** Repetitions at each CPU speed. */
const REPETITIONS = 3;

/** The sequence once, in Spanish, on a fresh phone tab with its CPU slowed down `cpuSlowdown` times. */
async function tapThroughQuicklyInSpanish(browser: Browser, cpuSlowdown: number): Promise<void> {
  const { page, errors, close } = await openSlowTab(browser, { cpuSlowdown });
  try {
    await page.goto('/es/donate', { waitUntil: 'commit' });
    const fifty = new RegExp(`^${formatDollars(50, 'es').replace('$', '\\$').replace(/\s/g, '\\s')}$`);
    await page.getByRole('button', { name: fifty }).click();
    await page.getByRole('button', { name: 'Mensual' }).click();
    await page.getByRole('button', { name: 'Investigación y Ciencia' }).click();
    await page.getByRole('button', { name: 'Continuar con la donación' }).click();
    await expect(page).toHaveURL(/\/es\/donate\/form$/);
    const stored = await page.evaluate((key) => sessionStorage.getItem(key), SESSION_KEYS.selection);
    expect(JSON.parse(stored ?? 'null')).toEqual({ amount: 50, frequency: 'monthly', cause: 'research-science' });
    expect(errors, 'the page logged errors').toEqual([]);
  } finally {
    await close();
  }
}

for (const cpuSlowdown of [1, 4]) {
  test(`a donor tapping 50 US$, Mensual, a cause and Continuar as soon as each is clickable reaches the Spanish form, CPU ${cpuSlowdown}x, ${REPETITIONS} runs`, async ({
    browser,
  }) => {
    // NOTE: new visitors in a row, each loading /es/donate and then the form's code: slow at 4x on a busy machine.
    test.slow();
    for (let run = 1; run <= REPETITIONS; run++) {
      await test.step(`run ${run}`, () => tapThroughQuicklyInSpanish(browser, cpuSlowdown));
    }
  });
}
