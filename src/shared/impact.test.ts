import { describe, expect, it } from 'vitest';
import enCatalogue from '../locales/en.json';
import esCatalogue from '../locales/es.json';
import { i18nWithCatalogue } from './i18n/compile-catalogue';
import { CAUSE_NAME_IDS, causeName } from './causes';
import { FREQUENCIES, FREQUENCY_LABELS, frequencyLabel } from './frequencies';
import { CAUSES, CAUSE_DETAILS, describeCause } from './causes';
import { impactBannerMessage, selectionImpactText } from './impact';
import { conservationFact, CONSERVATION_FACT_TIERS, thankYouImpactMessage, THANK_YOU_IMPACT_TIERS } from './thank-you-impact';

const en = i18nWithCatalogue('en', enCatalogue);
const es = i18nWithCatalogue('es', esCatalogue);

describe('selection impact text without a cause (spec section 9)', () => {
  it.each([
    [5000, 'several acres of coral reef habitat'],
    [1000, 'several acres of coral reef habitat'],
    [999.99, 'an entire coral reef monitoring station'],
    [500, 'an entire coral reef monitoring station'],
    [100, 'marine research equipment'],
    [50, 'coral restoration efforts'],
    [25, 'marine wildlife monitoring'],
    [24.99, 'educational programs for local communities'],
    [10, 'educational programs for local communities'],
    [9.99, 'conservation awareness initiatives'],
    [1, 'conservation awareness initiatives'],
  ])('$%d protects %s', (amount, text) => {
    expect(selectionImpactText(en, amount, null)).toBe(text);
  });

  it('uses the cause display name once a cause is chosen', () => {
    expect(selectionImpactText(en, 5, 'research-science')).toBe('Research and Science');
    expect(selectionImpactText(en, 5, 'mystery-cause')).toBe('mystery-cause');
  });
});

describe('impactBannerMessage', () => {
  it('omits the frequency for a one-time gift', () => {
    expect(impactBannerMessage(en, 'en', 25, 'one-time', null)).toBe(
      'Your $25 donation can help protect marine wildlife monitoring',
    );
  });

  it('names monthly and yearly gifts in lowercase', () => {
    expect(impactBannerMessage(en, 'en', 25, 'monthly', null)).toBe(
      'Your $25 monthly donation can help protect marine wildlife monitoring',
    );
    expect(impactBannerMessage(en, 'en', 1000, 'yearly', 'education-outreach')).toBe(
      'Your $1,000 yearly donation can help protect Education and Outreach',
    );
    expect(impactBannerMessage(en, 'en', 12.5, 'monthly', null)).toBe(
      'Your $12.50 monthly donation can help protect educational programs for local communities',
    );
  });
});

describe('thank-you messages (spec section 9 thresholds)', () => {
  it('has one impact message per threshold, each distinct', () => {
    const amounts = [1000, 500, 100, 50, 25, 10, 1];
    const messages = amounts.map((amount) => thankYouImpactMessage(en, amount));
    expect(new Set(messages).size).toBe(7);
    expect(messages).toEqual(THANK_YOU_IMPACT_TIERS.map((t) => en._(t.text)));
    expect(thankYouImpactMessage(en, 999.99)).toBe(thankYouImpactMessage(en, 500));
    expect(thankYouImpactMessage(en, 9.99)).toBe(thankYouImpactMessage(en, 1));
  });

  it('has one conservation fact per threshold, each distinct', () => {
    const facts = [500, 100, 50, 49.99].map((amount) => conservationFact(en, amount));
    expect(new Set(facts).size).toBe(4);
    expect(facts).toEqual(CONSERVATION_FACT_TIERS.map((t) => en._(t.text)));
    expect(conservationFact(en, 5000)).toBe(conservationFact(en, 500));
  });
});

describe('causes (spec section 3)', () => {
  it('lists the five causes with their names and icons', () => {
    expect(CAUSES.map((c) => [c, CAUSE_DETAILS[c].displayName, CAUSE_DETAILS[c].icon])).toEqual([
      ['marine-protected-areas', 'Marine Protected Areas Management', 'waves'],
      ['research-science', 'Research and Science', 'science'],
      ['education-outreach', 'Education and Outreach', 'school'],
      ['sustainable-development', 'Sustainable Development of Reef Resources', 'eco'],
      ['communications-marketing', 'Communications and Marketing', 'campaign'],
    ]);
  });

  it('shows an unknown cause as its raw value with a favorite icon', () => {
    expect(describeCause('coral-gardens')).toEqual({ displayName: 'coral-gardens', icon: 'favorite' });
  });
});

describe('the donor-facing vocabulary in English and Spanish (issue #24)', () => {
  it("names each cause in the source catalogue exactly as the spec does, and in Spanish differently", () => {
    for (const cause of CAUSES) {
      expect(causeName(en, cause)).toBe(CAUSE_DETAILS[cause].displayName);
      expect(causeName(es, cause)).not.toBe(CAUSE_DETAILS[cause].displayName);
      expect(es._(CAUSE_NAME_IDS[cause])).toBe(causeName(es, cause));
    }
    expect(causeName(es, 'coral-gardens')).toBe('coral-gardens');
  });

  it('labels each frequency as the spec does in English', () => {
    expect(FREQUENCIES.map((frequency) => frequencyLabel(en, frequency))).toEqual(FREQUENCIES.map((f) => FREQUENCY_LABELS[f]));
    expect(FREQUENCIES.map((frequency) => frequencyLabel(es, frequency))).toEqual(['Donación única', 'Mensual', 'Anual']);
  });

  it('writes the impact banner in Spanish with the amount as Spanish writes dollars', () => {
    expect(impactBannerMessage(es, 'es', 25, 'monthly', null)).toBe('Tu donación mensual de 25\u00a0US$ puede ayudar a proteger el monitoreo de la vida marina');
    expect(impactBannerMessage(es, 'es', 12.5, 'one-time', 'research-science')).toBe('Tu donación de 12,50\u00a0US$ puede ayudar a proteger Investigación y Ciencia');
  });
});
