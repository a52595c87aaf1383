import { describe, expect, it } from 'vitest';
import enCatalogue from '../../../locales/en.json';
import esCatalogue from '../../../locales/es.json';
import { i18nWithCatalogue } from '../../../shared/i18n/compile-catalogue';
import { chargeDayText } from './plan-format';

const en = i18nWithCatalogue('en', enCatalogue);
const es = i18nWithCatalogue('es', esCatalogue);

/** The plan's charge day on the manage page (issue #13's calendar), as each language says it (issue #24: ordinal days of the month). */
describe('chargeDayText', () => {
  it.each([
    ['2026-11-01', 'The 1st of each month', 'El día 1 de cada mes'],
    ['2026-11-02', 'The 2nd of each month', 'El día 2 de cada mes'],
    ['2026-11-03', 'The 3rd of each month', 'El día 3 de cada mes'],
    ['2026-11-11', 'The 11th of each month', 'El día 11 de cada mes'],
    ['2026-11-12', 'The 12th of each month', 'El día 12 de cada mes'],
    ['2026-11-22', 'The 22nd of each month', 'El día 22 de cada mes'],
    ['2026-11-28', 'The 28th of each month', 'El día 28 de cada mes'],
    ['2026-10-31', "The 31st of each month, or the month's last day when it is shorter", 'El día 31 de cada mes, o el último día del mes si es más corto'],
  ])('a monthly plan first charged on %s: %s', (anchorDate, english, spanish) => {
    expect(chargeDayText(en, 'en', { anchorDate, frequency: 'monthly' })).toBe(english);
    expect(chargeDayText(es, 'es', { anchorDate, frequency: 'monthly' })).toBe(spanish);
  });

  it("a yearly plan: its day and month as each language writes them (Intl), in UTC as the server's dates", () => {
    expect(chargeDayText(en, 'en', { anchorDate: '2026-11-26', frequency: 'yearly' })).toBe('Every year on November 26');
    expect(chargeDayText(es, 'es', { anchorDate: '2026-11-26', frequency: 'yearly' })).toBe('Cada año el 26 de noviembre');
    expect(chargeDayText(en, 'en', { anchorDate: '2027-01-01', frequency: 'yearly' })).toBe('Every year on January 1');
  });
});
