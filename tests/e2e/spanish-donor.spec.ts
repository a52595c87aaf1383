import { expectNoAxeViolations } from './a11y-helpers';
import { chooseDonation, chooseOption, expect, field, TEST_CARDS, test } from './fixtures';

/**
 * A donor gives in Spanish (issue #24) on the production server in test mode: with a $25 monthly selection, the
 * form at /es/donate/form speaks Spanish (labels, month names, a validation message, the submit button with
 * `25 US$`), a declined card's snackbar is in Spanish, a good card leads to /es/donate/thank-you in Spanish with
 * Spanish amounts; /es/donate/receipts and /es/donate/manage are in Spanish. axe finds nothing on each Spanish page.
 */

test('a donor gives $25 monthly in Spanish: form, decline, thank-you, receipts and manage pages in Spanish', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await chooseDonation(page, { customAmount: '25', frequency: 'monthly', cause: 'education-outreach' });
  await page.goto('/es/donate/form');

  await expect(page.getByRole('heading', { name: 'Completa tu donación', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Completa tu donación/);
  const summary = page.getByRole('region', { name: 'Resumen de la donación' });
  await expect(summary).toContainText('25 US$ al mes');
  await expect(summary).toContainText('Educación y Divulgación');
  await expect(summary.getByRole('link', { name: 'Cambiar donación' })).toHaveAttribute('href', '/es/donate');

  // A validation message in Spanish: an e-mail address without a domain, once the field is left.
  await field(page, 'Correo electrónico').fill('rosa@');
  await field(page, 'Nombre completo').fill('Rosa Young');
  await expect(page.getByText('Ingresa un correo electrónico válido')).toBeVisible();
  await expectNoAxeViolations(page, 'Spanish form with an error');
  await field(page, 'Correo electrónico').fill(`es-${testInfo.workerIndex}-${Date.now()}@example.org`);

  await field(page, 'Número de tarjeta').fill(TEST_CARDS.insufficientFunds);
  await expect(page.getByText('Tipo de tarjeta: Visa')).toBeVisible();
  await field(page, 'Nombre del titular').fill('Rosa Young');
  await chooseOption(page, 'Mes de vencimiento', '12 - diciembre');
  await chooseOption(page, 'Año de vencimiento', String(new Date().getFullYear() + 1));
  await field(page, 'CVV').fill('123');

  const submit = page.getByRole('button', { name: 'Donar 25 US$' });
  await submit.click();
  // The server's decline (code insufficient_funds) in the page's language, never its English sentence.
  await expect(page.getByRole('alert')).toHaveText('Error: Tu tarjeta no tiene fondos suficientes.');
  await page.getByRole('button', { name: 'Cerrar' }).click();

  await field(page, 'Número de tarjeta').fill(TEST_CARDS.visa);
  await submit.click();
  await expect(page).toHaveURL(/\/es\/donate\/thank-you$/);
  await expect(page.getByRole('heading', { name: '¡Gracias!', level: 1 })).toBeVisible();
  await expect(page.getByText('Tu donación se procesó con éxito')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: /^25\sUS\$$/ })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: /^25\sUS\$ al mes$/ })).toBeVisible();
  await expect(page.getByRole('term').filter({ hasText: 'Próximo cargo' })).toBeVisible();
  await expectNoAxeViolations(page, 'Spanish thank-you page');

  await page.getByRole('link', { name: 'Vuelve a obtener tus recibos' }).click();
  await expect(page).toHaveURL(/\/es\/donate\/receipts$/);
  await expect(page.getByRole('heading', { name: 'Obtén tus recibos', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill('nadie@');
  await page.getByRole('button', { name: 'Enviarme mis recibos' }).click();
  await expect(page.getByText('Ingresa un correo electrónico válido')).toBeVisible();
  await expectNoAxeViolations(page, 'Spanish receipts page');

  await page.goto('/es/donate/manage');
  await expect(page.getByRole('heading', { name: 'Administra tus donaciones recurrentes', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill('nadie@example.org');
  await page.getByRole('button', { name: 'Enviarme mis enlaces' }).click();
  await expect(page.getByRole('status')).toContainText('Si esta dirección tiene donaciones recurrentes');
  await expectNoAxeViolations(page, 'Spanish manage-links page');
});
