import { describe, expect, it } from 'vitest';
import { amountError, NOT_AN_AMOUNT_MESSAGE, parseCustomAmount } from '../../../shared/amounts';
import { formatDollars } from '../../../shared/money';
import { i18nFor, loadCatalogue } from '../../i18n/catalogues';
import { amountErrorText } from './amount-error-text';

/** Every message the custom amount field can show with `minDollars` as the smallest amount (issue #2), English. */
function fieldMessages(minDollars: number): string[] {
  const texts = ['abc', '-5', '1e3', '.', '0', '0.5', '4.99', '1000000', '999999.999', '12.345', '30.001'];
  const messages = texts.map((text) => parseCustomAmount(text, minDollars).error);
  return [...new Set([...messages, NOT_AN_AMOUNT_MESSAGE, amountError(Number.NaN)])].filter((message) => message !== undefined);
}

describe('amountErrorText (issue #24)', () => {
  it('shows the English message, never an id, while the Spanish screens part is not loaded', () => {
    for (const message of fieldMessages(1)) expect(amountErrorText(i18nFor('es'), message, 1)).toBe(message);
  });

  it('gives the Spanish text of every message the field can give once the screens part is loaded', async () => {
    await loadCatalogue('es', 'screens');
    const es = i18nFor('es');
    expect(amountErrorText(es, parseCustomAmount('abc').error!, 1)).toBe('Escribe un monto en dólares, por ejemplo 30 o 12.50');
    expect(amountErrorText(es, amountError(Number.NaN)!, 1)).toBe('El monto debe ser un número');
    expect(amountErrorText(es, parseCustomAmount('0').error!, 1)).toBe(`La donación mínima es de ${formatDollars(1, 'es')}`);
    expect(amountErrorText(es, parseCustomAmount('2', 2.5).error!, 2.5)).toBe(`La donación mínima es de ${formatDollars(2.5, 'es')}`);
    expect(amountErrorText(es, parseCustomAmount('1000000').error!, 1)).toBe(`La donación máxima es de ${formatDollars(999_999.99, 'es')}`);
    expect(formatDollars(999_999.99, 'es')).toMatch(/^999\.999,99\sUS\$$/);
    expect(amountErrorText(es, parseCustomAmount('12.345').error!, 1)).toBe('Usa como máximo 2 decimales');

    // Every message, with the spec's $1 or a deployment's $5 minimum: its own Spanish text, never English nor an id.
    for (const minDollars of [1, 5]) {
      const messages = fieldMessages(minDollars);
      expect(messages).toHaveLength(5);
      const spanish = messages.map((message) => amountErrorText(es, message, minDollars));
      expect(new Set(spanish).size).toBe(messages.length);
      for (const [index, text] of spanish.entries()) {
        expect(text).not.toBe(messages[index]);
        expect(text).not.toContain('amountError.');
      }
    }
  });

  it('keeps the spec English verbatim on English pages, even with their screens part loaded', async () => {
    await loadCatalogue('en', 'screens');
    for (const message of fieldMessages(5)) expect(amountErrorText(i18nFor('en'), message, 5)).toBe(message);
  });
});
