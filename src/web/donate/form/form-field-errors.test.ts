import { describe, expect, it } from 'vitest';
import { type DonationFormValues, EMPTY_DONATION_FORM, toDonationSubmission } from '../../../shared/donation';
import { toFormFieldErrors } from './form-field-errors';

/** Every leaf of `value` by its dotted path, as text (`{creditCard: {cvv: '123'}}` → `{'creditCard.cvv': '123'}`). */
function leavesByPath(value: object, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, child]: [string, unknown]) =>
      typeof child === 'object' && child !== null
        ? Object.entries(leavesByPath(child, `${prefix}${key}.`))
        : [[`${prefix}${key}`, String(child)]],
    ),
  );
}

describe('toFormFieldErrors', () => {
  it("puts each message of a 400 answer on the form field it names, in the form's order", () => {
    const fieldErrors = {
      'creditCard.number': 'Please enter a valid card number',
      donorEmail: 'Please enter a valid email address',
      'donorAddress.zipCode': 'ZIP / Postal code must be at most 20 characters',
      'creditCard.expiryMonth': 'Card has expired',
    };
    expect(toFormFieldErrors(fieldErrors)).toEqual([
      { name: 'donorEmail', message: 'Please enter a valid email address' },
      { name: 'zipCode', message: 'ZIP / Postal code must be at most 20 characters' },
      { name: 'cardNumber', message: 'Please enter a valid card number' },
      { name: 'expiryMonth', message: 'Card has expired' },
    ]);
  });

  it('leaves out paths that no form field feeds: the selection, computed fields, unknown fields', () => {
    const fieldErrors = { amount: 'The minimum donation is $5', cause: 'Please choose a cause', 'creditCard.type': 'x', creditCard: 'y', extra: 'Unknown field' };
    expect(toFormFieldErrors(fieldErrors)).toEqual([]);
  });

  it('names, for every form field, the payload path toDonationSubmission writes it to', () => {
    // Each field holds its own name (no spaces, so the card number survives stripping), so the payload
    // path that carries a field's value is the one that must map back to it. The dedication's fields
    // (issue #23) are its section's, ticked open, with 'memory' as its type.
    const { tribute: _section, ...topLevel } = EMPTY_DONATION_FORM;
    const form = {
      ...Object.fromEntries(Object.entries(topLevel).map(([name, empty]) => [name, typeof empty === 'boolean' ? true : `value-of-${name}`])),
      tribute: { enabled: true, type: 'memory', honoreeName: 'value-of-honoreeName', notify: true, notifyName: 'value-of-notifyName', notifyEmail: 'value-of-notifyEmail', notifyMessage: 'value-of-notifyMessage' },
    } as DonationFormValues;
    const submission = toDonationSubmission({ amount: 25, frequency: 'one-time', cause: 'research-science' }, form);
    const errors = toFormFieldErrors(leavesByPath(submission));
    const tributeFields = ['type', 'honoreeName', 'notifyName', 'notifyEmail', 'notifyMessage'] as const;
    expect(errors.map((error) => error.name)).toEqual([...Object.keys(topLevel), ...tributeFields.map((name) => `tribute.${name}`)]);
    const valueOf = (name: string) => (name.startsWith('tribute.') ? form.tribute[name.slice('tribute.'.length) as (typeof tributeFields)[number]] : form[name as keyof typeof topLevel]);
    for (const { name, message } of errors) expect(message).toBe(String(valueOf(name)));
  });
});
