import type { Page } from '@playwright/test';
import { formatDollars } from '../../src/shared/money';
import { expectNoAxeViolations } from './a11y-helpers';
import { expect, recordPageErrors, test, waitForApp } from './fixtures';
import { holdAppScripts } from './hold-app-scripts';

/**
 * The landing screen in Spanish (issue #24): `/` sends a Spanish-speaking browser to /es/donate, the page is in
 * Spanish with its language and alternates declared, the toolbar's switcher moves between the languages keeping the
 * donor's selection, and axe finds nothing.
 */

/** A preset amount's button name as Spanish writes it (`50 US$`; the accessible name has a plain space for the no-break one). */
const spanishAmount = (dollars: number) => new RegExp(`^${formatDollars(dollars, 'es').replace('$', '\\$').replace(/\s/g, '\\s')}$`);

/** Expects `<html lang>`, the title and the hreflang alternates of the landing screen in `lang`. */
async function expectLandingDocument(page: Page, lang: 'en' | 'es'): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page).toHaveTitle(lang === 'es' ? 'Donaciones para el Arrecife de Barrera de Belice' : 'Belize Barrier Reef Donations');
  const alternates = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="alternate"][hreflang]')].map((link) => `${link.hreflang} ${new URL(link.href).pathname}`),
  );
  expect(alternates.sort()).toEqual(['en /donate', 'es /es/donate', 'x-default /donate']);
}

test.describe('the landing screen in Spanish', () => {
  test('/ with a Spanish-first Accept-Language lands on /es/donate, in Spanish', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'es-BZ', extraHTTPHeaders: { 'accept-language': 'es-BZ,es;q=0.9' } });
    try {
      const page = await context.newPage();
      const errors = recordPageErrors(page);
      await page.goto('/');
      await expect(page).toHaveURL(/\/es\/donate$/);
      await waitForApp(page);
      await expect(page.getByRole('heading', { level: 1, name: 'Ayuda a proteger el Arrecife de Barrera de Belice' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Elige el monto de tu donación' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Donación única' })).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByRole('button', { name: spanishAmount(25) })).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByRole('button', { name: 'Continuar con la donación' })).toBeDisabled();
      await expectLandingDocument(page, 'es');
      expect(errors, 'the page logged errors').toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('/ with an English or other Accept-Language lands on /donate', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'fr-FR', extraHTTPHeaders: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' } });
    try {
      const page = await context.newPage();
      await page.goto('/');
      await expect(page).toHaveURL(/\/donate$/);
      await waitForApp(page);
      await expect(page.getByRole('heading', { level: 1, name: 'Help Protect the Belize Barrier Reef' })).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test('the switcher moves to /donate and back, keeping a selection made in Spanish', async ({ page }) => {
    await page.goto('/es/donate');
    await page.getByRole('button', { name: spanishAmount(50) }).click();
    await page.getByRole('button', { name: 'Mensual' }).click();
    await page.getByRole('button', { name: 'Investigación y Ciencia' }).click();
    await expect(page.getByText(/^Tu donación/)).toContainText('mensual');

    const english = page.getByRole('link', { name: 'English' });
    await expect(english).toHaveAttribute('lang', 'en');
    await expect(english).toHaveAttribute('hreflang', 'en');
    await english.click();
    await expect(page).toHaveURL(/\/donate$/);
    await expect(page.getByRole('button', { name: '$50', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Monthly' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Research and Science' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Continue to Donation' })).toBeEnabled();
    await expectLandingDocument(page, 'en');

    // And back, by keyboard: the link is reachable and named in its own language.
    const spanish = page.getByRole('link', { name: 'Español' });
    await expect(spanish).toHaveAttribute('lang', 'es');
    await spanish.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/es\/donate$/);
    await expect(page.getByRole('button', { name: spanishAmount(50) })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Mensual' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Investigación y Ciencia' })).toHaveAttribute('aria-pressed', 'true');
    await expectLandingDocument(page, 'es');

    // The selection is in the session's store: a reload in Spanish finds it too.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Investigación y Ciencia' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Continuar con la donación' }).click();
    await expect(page).toHaveURL(/\/es\/donate\/form$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  });

  test('choices made on the pre-rendered Spanish markup before the app is live survive a switch of language', async ({ browser }) => {
    // NOTE: a page of its own: the fixture's page.goto waits for the app, which this test holds back.
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = recordPageErrors(page);
    const releaseApp = await holdAppScripts(page);
    await page.goto('/es/donate', { waitUntil: 'commit' });
    await page.getByRole('button', { name: spanishAmount(100) }).click();
    await page.getByRole('button', { name: 'Anual' }).click();
    await page.getByRole('button', { name: 'Educación y Divulgación' }).click();
    releaseApp();
    await waitForApp(page);
    await page.getByRole('link', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/donate$/);
    await expect(page.getByRole('button', { name: '$100', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Yearly' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Education and Outreach' })).toHaveAttribute('aria-pressed', 'true');
    expect(errors, 'the page logged errors').toEqual([]);
    await context.close();
  });

  test('other pages keep the language: the server shell says es, /es and unknown Spanish paths land on /es/donate', async ({ page }) => {
    const shell = await (await page.request.get('/es/donate/receipts')).text();
    expect(shell).toContain('<html lang="es">');
    for (const path of ['/es', '/es/no-such-page']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/es\/donate$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    }
    await page.goto('/es/donate/receipts');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await page.getByRole('link', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/donate\/receipts$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const alternates = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="alternate"][hreflang="es"]')].map((link) => new URL(link.href).pathname));
    expect(alternates).toEqual(['/es/donate/receipts']);
  });

  test('the custom amount field says why in Spanish, and axe finds nothing with a message shown', async ({ page }) => {
    const errors = recordPageErrors(page);
    await page.goto('/es/donate');
    await page.getByRole('button', { name: 'Investigación y Ciencia' }).click();
    const continueButton = page.getByRole('button', { name: 'Continuar con la donación' });
    await page.getByRole('button', { name: 'Otro monto' }).click();
    const custom = page.getByRole('spinbutton', { name: 'Escribe otro monto' });
    await expect(custom).toBeFocused();

    // Text that is no amount: the number input holds something it cannot read as a number (validity.badInput).
    await custom.pressSequentially('abc1e');
    const notAnAmount = 'Escribe un monto en dólares, por ejemplo 30 o 12.50';
    await expect(custom).toHaveAccessibleDescription(notAnAmount);
    await expect(custom).toHaveAttribute('aria-invalid', 'true');
    await expect(continueButton).toBeDisabled();
    await expectNoAxeViolations(page, '/es/donate with a custom amount message');

    // Over the maximum, written as Spanish writes dollars (999.999,99 US$, a no-break space before US$).
    const maximum = new RegExp(`^La donación máxima es de ${formatDollars(999_999.99, 'es').replace(/[.$]/g, '\\$&').replace(/\s/g, '\\s')}$`);
    await custom.fill('1000000');
    await expect(custom).toHaveAccessibleDescription(maximum);
    await expect(continueButton).toBeDisabled();
    await custom.fill('0.5');
    await expect(custom).toHaveAccessibleDescription(/^La donación mínima es de 1\sUS\$$/);
    await custom.fill('12.345');
    await expect(custom).toHaveAccessibleDescription('Usa como máximo 2 decimales');
    await expect(page.getByText(/donation|decimal places|Enter an amount/)).toHaveCount(0);

    await custom.fill('30');
    await expect(custom).not.toHaveAttribute('aria-invalid', 'true');
    await expect(continueButton).toBeEnabled();
    expect(errors, 'the page logged errors').toEqual([]);
  });

  test('a custom amount typed on the pre-rendered Spanish markup before the app is live is explained in Spanish', async ({ browser }) => {
    // NOTE: a page of its own: the fixture's page.goto waits for the app, which this test holds back.
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = recordPageErrors(page);
    const releaseApp = await holdAppScripts(page);
    await page.goto('/es/donate', { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Otro monto' }).click();
    await page.getByRole('spinbutton', { name: 'Escribe otro monto' }).fill('1000000');
    releaseApp();
    await waitForApp(page);
    await expect(page.getByRole('spinbutton', { name: 'Escribe otro monto' })).toHaveAccessibleDescription(/^La donación máxima es de /);
    expect(errors, 'the page logged errors').toEqual([]);
    await context.close();
  });

  test('offline once live, the custom amount field still says why (in English, never an id) and leaves no error unhandled', async ({ browser }) => {
    // NOTE: a page of its own: the fixture's page fails on any console error, and the aborted loads log some.
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = recordPageErrors(page);
    await page.goto('/es/donate');
    await waitForApp(page);
    // From here no script arrives: the screens' catalogue and the messages' chunk fail to load.
    await page.route(/\/assets\/.+\.js$/, (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Otro monto' }).click();
    const custom = page.getByRole('spinbutton', { name: 'Escribe otro monto' });
    await custom.fill('1000000');
    await expect(custom).toHaveAccessibleDescription(/^The maximum donation is \$999,999\.99$/);
    await expect(page.getByRole('button', { name: 'Continuar con la donación' })).toBeDisabled();
    expect(errors.filter((error) => !/Failed to load resource/.test(error)), 'errors besides the failed loads').toEqual([]);
    await context.close();
  });

  test('axe finds no WCAG 2.2 AA violation on /es/donate, and the toolbar reflows at 320 px', async ({ page }) => {
    await page.goto('/es/donate');
    await expectNoAxeViolations(page, '/es/donate');
    await page.setViewportSize({ width: 320, height: 640 });
    await expect(page.getByRole('link', { name: 'English' })).toBeInViewport();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
