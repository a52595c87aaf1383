import { describe, expect, it } from 'vitest';
import { parseCustomAmount } from '../../shared/amounts';
import { readMinAmountDollars } from './min-amount';

/**
 * The custom amount field's minimum on the page (MIN_DONATION_AMOUNT; issue #4): read from the site-config
 * meta tag the server writes, falling back to the spec's $1, and enforced with a message.
 */

/** A document whose site-config meta tag holds `content` (or that has no such tag when undefined). */
const documentWith = (content: string | undefined) =>
  ({
    querySelector: (selector: string) =>
      content !== undefined && selector === 'meta[name="site-config"]' ? { content } : null,
  }) as unknown as Document;

describe('readMinAmountDollars', () => {
  it('reads the minimum the server put in the site config', () => {
    const content = JSON.stringify({ organizationUrl: 'https://reef.example.org/', publicUrl: 'https://give.example.org', minAmountDollars: 5 });
    expect(readMinAmountDollars(documentWith(content))).toBe(5);
    expect(readMinAmountDollars(documentWith('{"minAmountDollars":2.5}'))).toBe(2.5);
  });

  it.each([
    ['no tag', undefined],
    ['an empty tag', ''],
    ['no JSON', 'min=5'],
    ['JSON null', 'null'],
    ['no minimum', '{"publicUrl":"https://give.example.org"}'],
    ['a string', '{"minAmountDollars":"5"}'],
    ['under $1', '{"minAmountDollars":0.5}'],
    ['fractions of a cent', '{"minAmountDollars":2.005}'],
  ])("falls back to the spec's $1 with %s", (_case, content) => {
    expect(readMinAmountDollars(documentWith(content))).toBe(1);
  });

  it("is the spec's $1 without a document (pre-rendering at build time)", () => {
    expect(readMinAmountDollars(undefined)).toBe(1);
  });
});

describe('the custom amount field with a minimum of $5', () => {
  it.each([
    ['4.99', 'The minimum donation is $5'],
    ['1', 'The minimum donation is $5'],
  ])('%j is refused: %s', (text, error) => {
    expect(parseCustomAmount(text, 5)).toEqual({ error });
  });

  it.each([
    ['5', 5],
    ['5.01', 5.01],
    ['30', 30],
  ])('%j selects $%d', (text, amount) => {
    expect(parseCustomAmount(text, 5)).toEqual({ amountDollars: amount });
  });

  it("never goes under the spec's $1, whatever it is given", () => {
    expect(parseCustomAmount('0.50', 0.25)).toEqual({ error: 'The minimum donation is $1' });
    expect(parseCustomAmount('2.50', 2.5)).toEqual({ amountDollars: 2.5 });
    expect(parseCustomAmount('2.49', 2.5)).toEqual({ error: 'The minimum donation is $2.50' });
  });
});
