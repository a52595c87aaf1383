import { PRESET_AMOUNTS_DOLLARS } from '../../src/shared/amounts';
import { CAUSE_DETAILS, CAUSES } from '../../src/shared/causes';
import { formatDollars } from '../../src/shared/money';
import { chooseDonation, expect, test } from './fixtures';

/** The landing screen's heading, in English as the spec asks. */
const HERO_HEADING = 'Help Protect the Belize Barrier Reef';

/** The landing screen ships as pre-rendered HTML and is hydrated (issue #5, decision 0021), in English and Spanish (issue #24). */
test.describe('the pre-rendered landing screen', () => {
  test('a phone gets the hero and the selection card in the HTML itself, before any JavaScript', async ({ page }) => {
    const response = await page.request.get('/donate');
    expect(response.ok()).toBe(true);
    const html = await response.text();
    expect(html).toContain(`<h1`);
    expect(html).toContain(HERO_HEADING);
    expect(html).toContain('Choose Your Donation Amount');
    for (const preset of PRESET_AMOUNTS_DOLLARS) expect(html).toMatch(new RegExp(`<button[^>]*>${formatDollars(preset).replace('$', '\\$')}`));
    for (const cause of CAUSES) expect(html).toContain(CAUSE_DETAILS[cause].displayName);
    expect(html).toMatch(/<button[^>]*aria-pressed="true"[^>]*>\$25</);
    expect(html).toMatch(/<style[^>]* data-emotion="css /);
    // Other routes get the empty shell: their screens render in the browser.
    expect(await (await page.request.get('/donate/form')).text()).toContain('<div id="root"></div>');
  });

  test("the screen paints before the app's JavaScript is fetched, and then the app takes over", async ({ page }) => {
    await page.goto('/donate');
    const timings = await page.evaluate(() => {
      const scripts = performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname.endsWith('.js'));
      return {
        firstContentfulPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        scriptStartsMs: scripts.map((entry) => entry.startTime),
      };
    });
    expect(timings.scriptStartsMs.length).toBeGreaterThan(0);
    expect(Math.min(...timings.scriptStartsMs)).toBeGreaterThanOrEqual(timings.firstContentfulPaintMs);
    // Live: a click selects.
    await page.getByRole('button', { name: '$500', exact: true }).click();
    await expect(page.getByText(/^Your \$/)).toHaveText('Your $500 donation can help protect an entire coral reef monitoring station');
  });

  test('a visitor with JavaScript turned off still sees the hero and the amounts', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/donate');
      await expect(page.getByRole('heading', { level: 1, name: HERO_HEADING })).toBeVisible();
      await expect(page.getByRole('button', { name: '$25', exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Continue to Donation' })).toBeDisabled();
    } finally {
      await context.close();
    }
  });

  test('a donor coming back to /donate finds their selection again, hydrated without errors', async ({ page }) => {
    await chooseDonation(page, { preset: '$100', frequency: 'yearly', cause: 'education-outreach' });

    for (const arrive of [() => page.goto('/donate'), () => page.reload()]) {
      await arrive();
      await expect(page.getByRole('button', { name: '$100', exact: true })).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByRole('button', { name: '$25', exact: true })).toHaveAttribute('aria-pressed', 'false');
      await expect(page.getByRole('button', { name: 'Yearly' })).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByRole('button', { name: 'Education and Outreach' })).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByRole('button', { name: 'Continue to Donation' })).toBeEnabled();
    }
    // The hydrated screen works: the form opens (its lazily loaded chunk) with the selection.
    await page.getByRole('button', { name: 'Continue to Donation' }).click();
    await expect(page.getByRole('region', { name: 'Donation summary' })).toContainText('$100 yearly');
    // The fixture fails the test on any console error, hydration mismatches included.
  });

  test('/es/donate is pre-rendered in Spanish, with its alternates and its catalogue preloaded, and hydrates without errors', async ({ page }) => {
    const html = await (await page.request.get('/es/donate')).text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<title>Donaciones para el Arrecife de Barrera de Belice</title>');
    expect(html).toContain('Ayuda a proteger el Arrecife de Barrera de Belice');
    expect(html).toContain('Elige el monto de tu donación');
    expect(html).toMatch(/<link rel="alternate" hreflang="en" href="[^"]*\/donate">/);
    expect(html).toMatch(/<link rel="alternate" hreflang="es" href="[^"]*\/es\/donate">/);
    expect(html).toMatch(/<link rel="alternate" hreflang="x-default" href="[^"]*\/donate">/);
    const english = await (await page.request.get('/donate')).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('<title>Belize Barrier Reef Donations</title>');

    // The Spanish landing catalogue is fetched with the app's other start chunks, not after them.
    await page.goto('/es/donate');
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered-path');
    const preloaded = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => new URL(link.href).pathname));
    const catalogue = preloaded.find((path) => /\/assets\/es-[^/]+\.js$/.test(path));
    expect(catalogue, 'the es landing catalogue is preloaded').toBeDefined();
    // Live in Spanish: a click selects, and the banner says so in Spanish.
    await page.getByRole('button', { name: /^500\sUS\$$/ }).click();
    await expect(page.getByRole('button', { name: /^500\sUS\$$/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText(/^Tu donación/)).toContainText('500');
    // The fixture fails the test on any console error, hydration mismatches included.
  });

  test('a stored custom amount comes back in its field after a reload', async ({ page }) => {
    await page.goto('/donate');
    await page.getByRole('button', { name: 'Custom Amount' }).click();
    await page.getByRole('spinbutton', { name: 'Enter Custom Amount' }).fill('12.5');
    await page.getByRole('button', { name: 'Research and Science' }).click();
    await page.getByRole('button', { name: 'Continue to Donation' }).click();
    await expect(page).toHaveURL(/\/donate\/form$/);
    await page.goto('/donate');
    await expect(page.getByRole('spinbutton', { name: 'Enter Custom Amount' })).toHaveValue('12.5');
    await expect(page.getByRole('button', { name: 'Custom Amount' })).toHaveAttribute('aria-pressed', 'true');
  });
});
