import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { CAUSE_DETAILS, type Cause } from '../../src/shared/causes';
import { PRERENDERED_PATH_ATTRIBUTE } from '../../src/shared/prerendered-pages';
import { FREQUENCY_LABELS, type Frequency } from '../../src/shared/frequencies';

/**
 * Waits until the app is live on the page. /donate paints from its pre-rendered HTML before the app's
 * JavaScript loads (issue #5, decision 0021); choices made on that markup before then count (decision
 * 0023, early-choices.spec.ts), but the other specs test the live app. The app drops the root's
 * `data-prerendered-path` once it has hydrated. Other routes never carry the attribute, so this returns at once there.
 */
export async function waitForApp(page: Page): Promise<void> {
  await expect(page.locator(`#root[${PRERENDERED_PATH_ATTRIBUTE}]`)).toHaveCount(0);
}

/**
 * Collects, from now on, every uncaught error of `page` and every error it logs to the console (hydration
 * mismatches included) into the returned list, which a test expects to stay empty.
 */
export function recordPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // NOTE: a declined card answers 402 and a field the server refuses 400, which Chromium reports as a failed
    // resource load; that is the product working.
    if (message.type() === 'error' && !/status of 40[02]/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/**
 * The Playwright `test` with two additions: `page.goto` and `page.reload` return only once the app is
 * live ({@link waitForApp}), and every test fails if the page threw an uncaught error or logged a
 * console error, so a broken screen cannot pass by accident.
 */
export const test = base.extend<{ pageErrors: string[] }>({
  page: async ({ page }, use) => {
    const [goto, reload] = [page.goto.bind(page), page.reload.bind(page)];
    page.goto = async (...args: Parameters<Page['goto']>) => {
      const response = await goto(...args);
      await waitForApp(page);
      return response;
    };
    page.reload = async (...args: Parameters<Page['reload']>) => {
      const response = await reload(...args);
      await waitForApp(page);
      return response;
    };
    await use(page);
  },
  pageErrors: [
    async ({ page }, use) => {
      const errors = recordPageErrors(page);
      await use(errors);
      expect(errors, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/** A future expiry: December of next year. */
export const FUTURE_EXPIRY = { month: '12 - December', year: String(new Date().getFullYear() + 1) };

/** Card numbers from shared/test-cards.md, as a donor types them. */
export const TEST_CARDS = {
  visa: '4242 4242 4242 4242',
  mastercard: '5555 5555 5555 4444',
  amex: '3782 822463 10005',
  discover: '6011 1111 1111 1117',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  badLuhn: '4242 4242 4242 4241',
} as const;

/** Picks an amount (a preset like '$50', or a custom amount typed as text), a frequency and a cause, then continues. */
export async function chooseDonation(
  page: Page,
  { preset, customAmount, frequency, cause }: { preset?: string; customAmount?: string; frequency: Frequency; cause: Cause },
): Promise<void> {
  await page.goto('/donate');
  if (preset) await page.getByRole('button', { name: preset, exact: true }).click();
  if (customAmount !== undefined) {
    await page.getByRole('button', { name: 'Custom Amount' }).click();
    await page.getByRole('spinbutton', { name: 'Enter Custom Amount' }).fill(customAmount);
  }
  await page.getByRole('button', { name: FREQUENCY_LABELS[frequency], exact: true }).click();
  await page.getByRole('button', { name: CAUSE_DETAILS[cause].displayName }).click();
  await page.getByRole('button', { name: 'Continue to Donation' }).click();
  await expect(page).toHaveURL(/\/donate\/form$/);
}

/**
 * A form text field by its accessible name, which is its label (issue #2).
 * NOTE: not getByLabel: that matches the label's whole text, which includes MUI's aria-hidden ' *'.
 */
export function field(page: Page, name: string): Locator {
  return page.getByRole('textbox', { name, exact: true });
}

/** Chooses an option of one of the form's expiry selects by its visible label, and waits until the select shows it. */
export async function chooseOption(page: Page, selectLabel: string, optionLabel: string): Promise<void> {
  const select = page.getByRole('combobox', { name: selectLabel });
  // NOTE: on a loaded machine the click can land while MUI's menu still grows and scrolls to its option, and miss it
  // (seen in CI: the menu stayed open, nothing chosen, and the next select hidden behind it): click the option again
  // while the menu is open, until the select shows it.
  await expect(async () => {
    if (!(await page.getByRole('listbox').isVisible())) await select.click();
    await page.getByRole('option', { name: optionLabel, exact: true }).click({ timeout: 2_000 });
    await expect(select).toContainText(optionLabel, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

/** The donor details a test fills in; every field can be overridden. */
export interface DonorDetails {
  name: string;
  email: string;
  cardNumber: string;
  cardholderName: string;
  expiryMonth: string;
  expiryYear: string;
  cvv: string;
}

/** Fills the required fields of the donation form. */
export async function fillDonorForm(page: Page, overrides: Partial<DonorDetails> = {}): Promise<DonorDetails> {
  const details: DonorDetails = {
    name: 'Marisol Chan',
    email: 'marisol@example.org',
    cardNumber: TEST_CARDS.visa,
    cardholderName: 'Marisol Chan',
    expiryMonth: FUTURE_EXPIRY.month,
    expiryYear: FUTURE_EXPIRY.year,
    cvv: '123',
    ...overrides,
  };
  await field(page, 'Full Name').fill(details.name);
  await field(page, 'Email Address').fill(details.email);
  await field(page, 'Card Number').fill(details.cardNumber);
  await field(page, 'Cardholder Name').fill(details.cardholderName);
  await chooseOption(page, 'Expiry Month', details.expiryMonth);
  await chooseOption(page, 'Expiry Year', details.expiryYear);
  await field(page, 'CVV').fill(details.cvv);
  return details;
}
