import { describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config';
import { taxStatementIn } from './receipt-view';

/** The receipt's tax wording (issue #12, decision 0043) in the receipt's language (issue #24). */
describe('the tax wording of a receipt', () => {
  it('makes no tax-deductibility claim by default, in any language (the catalogues\' wording when RECEIPT_TAX_STATEMENT is unset)', () => {
    const { organization } = loadConfig({});
    expect(organization.taxStatement).toBeUndefined();
    const [english, spanish] = (['en', 'es'] as const).map((locale) => taxStatementIn(organization, locale));
    expect(english).toMatch(/no goods or services/i);
    expect(english).toMatch(/consult a tax advisor/i);
    expect(english).not.toMatch(/is (fully )?tax[- ]deductible/i);
    expect(spanish).toMatch(/^No se entregaron bienes ni servicios/);
    expect(spanish).toMatch(/consulta a un asesor fiscal/);
    expect(spanish).not.toMatch(/deducible/i);
  });

  it("prints the operator's RECEIPT_TAX_STATEMENT as written, in every language", () => {
    const { organization } = loadConfig({ RECEIPT_TAX_STATEMENT: 'Our own wording.' });
    expect(taxStatementIn(organization, 'en')).toBe('Our own wording.');
    expect(taxStatementIn(organization, 'es')).toBe('Our own wording.');
  });
});
