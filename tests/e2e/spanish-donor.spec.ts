import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { chargeDate } from '../../src/server/recurring/calendar';
import { MANAGE_PLAN_API_PATH } from '../../src/shared/recurring';
import type { ManagedPlan } from '../../src/shared/recurring-api';
import { expectNoAxeViolations } from './a11y-helpers';
import { E2E_ADMIN_TOKEN, E2E_DATA_DIR } from './e2e-env';
import { chooseDonation, chooseOption, expect, field, TEST_CARDS, test } from './fixtures';
import { linkPaths, waitForMail, waitForMails } from './mail-helpers';

/**
 * A donor gives in Spanish (issue #24) on the production server in test mode: with a $25 monthly selection, the
 * form at /es/donate/form speaks Spanish (labels, month names, a validation message, the submit button with
 * `25 US$`), a declined card's snackbar is in Spanish, a good card leads to /es/donate/thank-you in Spanish with
 * Spanish amounts; /es/donate/receipts and /es/donate/manage are in Spanish, and the receipts page e-mails the donor
 * the links of their receipts. The receipt e-mail the relay writes into MAIL_DIR is in Spanish, links to the Spanish
 * pages, and carries a Spanish PDF. An operator's billing run a month later renews the gift: its receipt e-mail is in
 * Spanish with the next charge date in Spanish, and its manage link opens the Spanish manage page. axe finds nothing
 * on each Spanish page.
 */

const MAIL_DIR = join(E2E_DATA_DIR, 'mail');

/** `25 US$` as Intl writes it in Spanish (a no-break space before `US$`), as a regular expression's source. */
const AMOUNT_25 = '25\\sUS\\$';

/** `23 de noviembre de 2026`: a UTC date (`YYYY-MM-DD`) as the Spanish receipts print it (receipt-view.ts). */
const spanishDate = (isoDate: string) =>
  new Intl.DateTimeFormat('es', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`));

/** The text of every page of a PDF, read with pdf.js (as the receipts' Vitest tests read it), items joined by spaces. */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return pages.join('\n');
}

/**
 * Checks that a receipt e-mail of the Spanish $25 monthly gift is in Spanish: subject, heading, labelled lines (the
 * next charge on one of `nextChargeOn`, `YYYY-MM-DD`), the PDF link, and the manage and receipts links on the Spanish pages
 * (none on an English one). Returns the manage link's path, `/es/donate/manage/<token>`.
 */
function expectSpanishReceipt(receipt: ParsedMail, nextChargeOn: readonly string[]): string {
  expect(receipt.subject).toMatch(new RegExp(`^Tu recibo \\d{4}-\\d{6,}: ${AMOUNT_25} para .+$`));
  expect(receipt.html).toMatch(/<html [^>]*lang="es"/);
  const text = receipt.text ?? '';
  expect(receipt.html).toMatch(/<h2[^>]*>¡Gracias por tu donación!<\/h2>/);
  // NOTE: the plain-text part writes headings in capitals (html-to-text).
  expect(text).toContain('¡GRACIAS POR TU DONACIÓN!');
  expect(text).toMatch(new RegExp(`^Monto: ${AMOUNT_25}$`, 'm'));
  expect(text).toMatch(/^Frecuencia: Mensual$/m);
  expect(text).toMatch(/^Causa: Educación y Divulgación$/m);
  expect(text).toMatch(/^Pagado con: Visa terminada en 4242$/m);
  expect(text).toMatch(new RegExp(`^Próximo cobro: (${nextChargeOn.map(spanishDate).join('|')}) \\(donación recurrente\\)$`, 'm'));
  expect(text).toContain('Descarga tu recibo (PDF)');
  expect(text).toContain('Administra tu donación recurrente');
  expect(text).not.toMatch(/\b(Thank you|Amount|Monthly|Next charge|Download)\b/);

  for (const part of ['text', 'html'] as const) {
    const paths = linkPaths(receipt, part);
    expect(paths, `the ${part} part's links`).toContainEqual(expect.stringMatching(/^\/api\/receipts\/pdf\/[\w.-]+$/));
    expect(paths, `the ${part} part's links`).toContain('/es/donate/receipts');
    expect(paths, `the ${part} part's links`).toContainEqual(expect.stringMatching(/^\/es\/donate\/manage\/[\w.-]+$/));
    expect(paths.filter((path) => path.startsWith('/donate')), `no English page in the ${part} part`).toEqual([]);
  }
  return linkPaths(receipt).find((path) => path.startsWith('/es/donate/manage/')) ?? '';
}

test('a donor gives $25 monthly in Spanish: pages, receipt e-mail and PDF in Spanish, and the renewal a month later in Spanish', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const email = `es-${testInfo.workerIndex}-${Date.now()}@example.org`;
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
  await field(page, 'Correo electrónico').fill(email);

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
  const receiptsAddress = page.getByRole('textbox', { name: 'Correo electrónico' });
  await receiptsAddress.fill('nadie@');
  await page.getByRole('button', { name: 'Enviarme mis recibos' }).click();
  await expect(page.getByText('Ingresa un correo electrónico válido')).toBeVisible();
  await expectNoAxeViolations(page, 'Spanish receipts page');
  // The donor's own address: the page's form asks for the receipt links again (their e-mail is checked below).
  await receiptsAddress.fill(email);
  const resendAnswer = page.waitForResponse('**/api/receipts/resend');
  await page.getByRole('button', { name: 'Enviarme mis recibos' }).click();
  expect((await resendAnswer).status()).toBe(202);
  await expect(page.getByRole('status')).toContainText('Si tenemos donaciones de esta dirección');

  await page.goto('/es/donate/manage');
  await expect(page.getByRole('heading', { name: 'Administra tus donaciones recurrentes', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill('nadie@example.org');
  await page.getByRole('button', { name: 'Enviarme mis enlaces' }).click();
  await expect(page.getByRole('status')).toContainText('Si esta dirección tiene donaciones recurrentes');
  await expectNoAxeViolations(page, 'Spanish manage-links page');

  // The receipt e-mail (MAIL_DIR, the e2e server's relay), in Spanish, with its links on the Spanish pages.
  // NOTE: the oldest: another story's billing run may already have renewed the plan (see below).
  const [receipt] = (await waitForMails(MAIL_DIR, email, 'receipt')) as [ParsedMail];
  const firstManagePath = linkPaths(receipt).find((path) => path.startsWith('/es/donate/manage/')) ?? '';
  const planApiPath = MANAGE_PLAN_API_PATH.replace(':token', firstManagePath.split('/').at(-1) ?? '');
  const planOf = async () => ((await (await request.get(planApiPath)).json()) as { data: ManagedPlan }).data;
  // NOTE: the dates from the plan's anchor (its first charge's date), not its next charge now: another story's billing
  // run a month on (recurring.spec.ts, staff-plans.spec.ts) may renew this plan at any time on the shared server.
  const anchor = (await planOf()).charges.map((charge) => charge.date).sort()[0] ?? '';
  // The relay writes the receipt when it sends it, with the plan's next charge then: the second period's, or the third's
  // when such a billing run renewed the plan first.
  const firstNextChargeOn = [chargeDate(anchor, 'monthly', 1), chargeDate(anchor, 'monthly', 2)];
  expectSpanishReceipt(receipt, firstNextChargeOn);

  // Its PDF, attached and behind its link, is a Spanish receipt.
  expect(receipt.attachments.map((attachment) => attachment.contentType)).toEqual(['application/pdf']);
  const attachedPdf = await pdfText(receipt.attachments[0]?.content ?? Buffer.alloc(0));
  for (const label of ['Número de recibo', 'Fecha', 'Monto', 'Frecuencia', 'Mensual', 'Causa', 'Educación y Divulgación', 'Donante', 'Rosa Young', 'Pagado con', 'Visa terminada en 4242', 'ID de la transacción', 'Próximo cobro']) {
    expect(attachedPdf, `the PDF says "${label}"`).toContain(label);
  }
  expect(attachedPdf).toMatch(new RegExp(AMOUNT_25));
  expect(attachedPdf).toMatch(new RegExp(`(${firstNextChargeOn.map(spanishDate).join('|')}) \\(donación recurrente\\)`));
  const pdfPath = linkPaths(receipt).find((path) => path.startsWith('/api/receipts/pdf/')) ?? '';
  const linkedPdf = await page.request.get(pdfPath);
  expect(linkedPdf.headers()['content-type']).toBe('application/pdf');
  const linkedPdfText = await pdfText(await linkedPdf.body());
  expect(linkedPdfText).toContain('Número de recibo');
  expect(linkedPdfText).toMatch(new RegExp(AMOUNT_25));

  // The receipt links the donor asked for on /es/donate/receipts: to that address, with a link to a receipt's PDF.
  const receiptLinks = await waitForMail(MAIL_DIR, email, 'receipt_links');
  expect(receiptLinks.to && !Array.isArray(receiptLinks.to) ? receiptLinks.to.value.map((to) => to.address) : []).toEqual([email]);
  expect(linkPaths(receiptLinks)).toContainEqual(expect.stringMatching(/^\/api\/receipts\/pdf\/[\w.-]+$/));

  // A month later, an operator's billing run renews the gift: its receipt e-mail is in Spanish, with the next charge.
  const monthLater = new Date(Date.now() + 32 * 24 * 60 * 60 * 1000).toISOString();
  const run = await request.post('/api/admin/billing/run', { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` }, data: { asOf: monthLater } });
  expect(run.status()).toBe(200);
  const renewal = (await waitForMails(MAIL_DIR, email, 'receipt', 2))[1] as ParsedMail;
  const renewed = await planOf();
  expect(renewed.charges.map((charge) => charge.status)).toEqual(['succeeded', 'succeeded']);
  expect(renewed.nextChargeOn).toBe(chargeDate(anchor, 'monthly', 2));
  expect(renewal.subject, 'a new receipt, not the first one again').not.toBe(receipt.subject);
  const managePath = expectSpanishReceipt(renewal, [chargeDate(anchor, 'monthly', 2)]);

  // Its manage link opens the Spanish manage page.
  await page.goto(managePath);
  await expect(page).toHaveURL(/\/es\/donate\/manage\/[\w.-]+$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { name: 'Administra tu donación recurrente', level: 1 })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: /^25\sUS\$ al mes$/ })).toBeVisible();
  await expect(page.getByRole('term').filter({ hasText: 'Próximo cargo' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: spanishDate(chargeDate(anchor, 'monthly', 2)) })).toBeVisible();
  await expect(page.getByRole('term').filter({ hasText: 'Día de cargo' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: new RegExp(`^El día ${Number(anchor.slice(8, 10))} de cada mes`) })).toBeVisible();
  await expectNoAxeViolations(page, 'Spanish manage page of the renewed gift');

  // An amount over the largest gift is refused by the server; the page says why in Spanish, at the field too.
  await page.getByRole('textbox', { name: 'Monto (USD)' }).or(page.getByRole('spinbutton', { name: 'Monto (USD)' })).fill('1000000');
  await page.getByRole('button', { name: 'Guardar monto' }).click();
  await expect(page.getByRole('alert')).toHaveText(/^La donación máxima es de 999\.999,99\sUS\$$/);
  await expect(page.getByText(/^La donación máxima es de/)).toHaveCount(2);
});
