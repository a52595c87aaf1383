import { describe, expect, it } from 'vitest';
import { campaignShareUrl } from '../thank-you/campaign-share';
import { LINK_SCRIPT_RULES } from './campaign-link-script';
import { normalizeCampaignSlug, readLinkChoices } from '../../../shared/campaign';

/** Campaign links' rules (issue #23, section 1), as the pre-rendered page's script and the server apply them. */
describe('a campaign link', () => {
  const read = (search: string, minDollars = 1) => readLinkChoices(search, { ...LINK_SCRIPT_RULES, minDollars });

  it('chooses a valid amount (a preset or a custom amount of at most two decimals, up to $100,000), frequency and cause', () => {
    expect(read('?amount=50&frequency=monthly&cause=research-science')).toEqual({ amount: '50', frequency: 'monthly', cause: 'research-science' });
    expect(read('?amount=12.5')).toEqual({ amount: '12.5' });
    expect(read('?amount=100000.00')).toEqual({ amount: '100000' });
    expect(read('?amount=1')).toEqual({ amount: '1' });
  });

  it('ignores each value that is not valid, silently, and keeps the rest', () => {
    expect(read('?amount=100000.01&frequency=weekly&cause=research-science')).toEqual({ cause: 'research-science' });
    for (const amount of ['-5', '0.99', '12.345', '1e3', 'abc', '', ' 50', '0x10']) expect(read(`?amount=${encodeURIComponent(amount)}`), amount).toEqual({});
    expect(read('?amount=4.99', 5)).toEqual({});
    expect(read('?amount=5', 5)).toEqual({ amount: '5' });
    expect(read('?frequency=Monthly&cause=reef')).toEqual({});
  });

  it('names a campaign by a slug of letters, digits and dashes, at most 64, compared without case', () => {
    expect(normalizeCampaignSlug('Spring-Appeal-2026')).toBe('spring-appeal-2026');
    expect(normalizeCampaignSlug('a'.repeat(64))).toBe('a'.repeat(64));
    for (const bad of ['a'.repeat(65), '', 'spring appeal', 'spring_appeal', 'é', null, 42]) expect(normalizeCampaignSlug(bad)).toBeNull();
  });

  it('is what the thank-you page shares: /donate with the campaign alone, or the site without one', () => {
    expect(campaignShareUrl('https://give.example.org/', 'spring-appeal')).toBe('https://give.example.org/donate?campaign=spring-appeal');
    expect(campaignShareUrl('https://give.example.org', null)).toBe('https://give.example.org');
  });
});
