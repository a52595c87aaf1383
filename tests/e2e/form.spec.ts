import { chooseDonation, field, chooseOption, expect, FUTURE_EXPIRY, TEST_CARDS, test } from './fixtures';

test.describe('the donation form', () => {
  test('a visitor who opens the form without choosing a donation is sent to /donate', async ({ page }) => {
    await page.goto('/donate/form');
    await expect(page).toHaveURL(/\/donate$/);
  });

  test('a donor sees the summary, the sections, the secure notice and the CVV hint', async ({ page }) => {
    await chooseDonation(page, { preset: '$50', frequency: 'monthly', cause: 'sustainable-development' });
    const summary = page.getByRole('region', { name: 'Donation summary' });
    await expect(summary).toContainText('$50 monthly');
    await expect(summary).toContainText('Sustainable Development of Reef Resources');
    for (const heading of ['Personal Information', 'Billing Address (Optional)', 'Payment Information']) {
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    }
    for (const [label, token] of [
      ['Full Name', 'name'],
      ['Email Address', 'email'],
      ['Phone Number', 'tel'],
      ['Street Address', 'street-address'],
      ['City', 'address-level2'],
      ['State / Province', 'address-level1'],
      ['ZIP / Postal Code', 'postal-code'],
      ['Country', 'country-name'],
      ['Card Number', 'cc-number'],
      ['Cardholder Name', 'cc-name'],
      ['CVV', 'cc-csc'],
    ] as const) {
      await expect(field(page, label)).toHaveAttribute('autocomplete', token);
    }
    await expect(field(page, 'Message (Optional)')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Make my donation anonymous' })).not.toBeChecked();
    await expect(page.getByText(/encrypted and secure/i)).toBeVisible();
    await page.getByRole('button', { name: /security code/i }).hover();
    await expect(page.getByRole('tooltip')).toHaveText('3-4 digit security code on the back of your card');
    await expect(page.getByRole('button', { name: 'Complete Donation of $50' })).toBeDisabled();
  });

  test('a donor who leaves fields empty or wrong sees every validation message', async ({ page }) => {
    await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
    const leave = async (label: string, value: string) => {
      const input = field(page, label);
      await input.fill(value);
      await input.blur();
    };
    await leave('Full Name', '');
    await expect(page.getByText('Name is required')).toBeVisible();
    await leave('Full Name', 'A');
    await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();
    await leave('Full Name', 'Ana');
    await expect(page.getByText('Name must be at least 2 characters')).toBeHidden();

    await leave('Email Address', '');
    await expect(page.getByText('Email is required')).toBeVisible();
    await leave('Email Address', 'ana@');
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();

    await leave('Card Number', '');
    await expect(page.getByText('Card number is required')).toBeVisible();
    await leave('Card Number', TEST_CARDS.badLuhn);
    await expect(page.getByText('Please enter a valid card number')).toBeVisible();

    await leave('Cardholder Name', '');
    await expect(page.getByText('Cardholder name is required')).toBeVisible();
    await leave('Cardholder Name', 'B');
    await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();

    await leave('CVV', '');
    await expect(page.getByText('CVV is required')).toBeVisible();
    await leave('CVV', '12');
    await expect(page.getByText('CVV must be 3-4 digits')).toBeVisible();

    for (const select of ['Expiry Month', 'Expiry Year']) {
      await page.getByRole('combobox', { name: select }).click();
      await expect(page.getByRole('listbox')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('listbox')).toBeHidden();
    }
    await expect(page.getByText('Month is required')).toBeVisible();
    await expect(page.getByText('Year is required')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Complete Donation of $25' })).toBeDisabled();
  });

  test('a donor who pastes text with control characters is asked to remove them, field by field', async ({ page }) => {
    await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
    const unsupported = page.getByText('Please remove unsupported characters');
    for (const [label, pasted] of [
      ['Phone Number', '555\u00000100'],
      ['ZIP / Postal Code', 'PV\u001b88'],
      ['Message (Optional)', 'For the reef\u0007'],
    ] as const) {
      const input = field(page, label);
      await input.fill(pasted);
      await input.blur();
      await expect(unsupported).toHaveCount(1);
      await input.fill([...pasted].filter((character) => character >= ' ').join(''));
      await input.blur();
      await expect(unsupported).toHaveCount(0);
    }
    // A message keeps its lines and tabs.
    await field(page, 'Message (Optional)').fill('For the reef,\n\twith love');
    await field(page, 'Message (Optional)').blur();
    await expect(unsupported).toHaveCount(0);
  });

  test('an expired card is refused before any payment is tried', async ({ page }) => {
    // NOTE: the browser's clock is fixed in June 2027, so January 2027 is always in the past.
    await page.clock.setFixedTime(new Date('2027-06-15T12:00:00'));
    await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
    await chooseOption(page, 'Expiry Year', '2027');
    await chooseOption(page, 'Expiry Month', '01 - January');
    await expect(page.getByText('Card has expired')).toBeVisible();
    await chooseOption(page, 'Expiry Month', '06 - June');
    await expect(page.getByText('Card has expired')).toBeHidden();
    await chooseOption(page, 'Expiry Month', '05 - May');
    await expect(page.getByText('Card has expired')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Complete Donation of $25' })).toBeDisabled();
  });

  test('the card number is grouped in fours and its brand is named', async ({ page }) => {
    await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
    const cardNumber = field(page, 'Card Number');
    await expect(cardNumber).toHaveAttribute('maxlength', '19');
    const brands: Array<[string, string, string]> = [
      ['4242424242424242', '4242 4242 4242 4242', 'Visa'],
      ['5555555555554444', '5555 5555 5555 4444', 'Mastercard'],
      ['2223003122003222', '2223 0031 2200 3222', 'Mastercard'],
      ['378282246310005', '3782 8224 6310 005', 'American Express'],
      ['6011111111111117', '6011 1111 1111 1117', 'Discover'],
    ];
    for (const [typed, shown, brand] of brands) {
      await cardNumber.fill('');
      await cardNumber.pressSequentially(typed);
      await expect(cardNumber).toHaveValue(shown);
      await expect(page.getByText(`Card type: ${brand}`)).toBeVisible();
    }
    await cardNumber.fill('');
    await cardNumber.pressSequentially('4242-4242 abcd 4242424242424');
    await expect(cardNumber).toHaveValue('4242 4242 4242 4242');
  });

  test('the CVV field takes digits only, at most four', async ({ page }) => {
    await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
    const cvv = field(page, 'CVV');
    await expect(cvv).toHaveAttribute('maxlength', '4');
    await cvv.pressSequentially('1a2b3c45');
    await expect(cvv).toHaveValue('1234');
  });

  test('a reload on the form keeps the selection but never the card details', async ({ page }) => {
    await chooseDonation(page, { preset: '$10', frequency: 'yearly', cause: 'marine-protected-areas' });
    await field(page, 'Card Number').fill(TEST_CARDS.visa);
    await field(page, 'CVV').fill('987');
    await chooseOption(page, 'Expiry Month', FUTURE_EXPIRY.month);
    await page.reload();
    await expect(page).toHaveURL(/\/donate\/form$/);
    await expect(page.getByRole('button', { name: 'Complete Donation of $10' })).toBeVisible();
    await expect(field(page, 'Card Number')).toHaveValue('');
    const stored = await page.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
    expect(stored).not.toContain('4242');
    expect(stored).not.toContain('987');
  });
});
