import type { I18n } from '@lingui/core';
/** The five causes a donor can support, in display order (spec section 3, "Causes"). */
export const CAUSES = [
  'marine-protected-areas',
  'research-science',
  'education-outreach',
  'sustainable-development',
  'communications-marketing',
] as const;

/** A cause value such as `research-science`: one of {@link CAUSES}. Its schema is CauseSchema (field-rules.ts). */
export type Cause = (typeof CAUSES)[number];

/** Material icon names of the spec (section 3); `favorite` is the fallback for unknown causes. */
export type CauseIconName = 'waves' | 'science' | 'school' | 'eco' | 'campaign' | 'favorite';

/**
 * Material icon name of each cause (spec section 3). Apart from the names, so that /donate, which names causes from
 * the catalogue (issue #24), does not carry the English names as well.
 */
export const CAUSE_ICONS: Record<Cause, CauseIconName> = {
  'marine-protected-areas': 'waves',
  'research-science': 'science',
  'education-outreach': 'school',
  'sustainable-development': 'eco',
  'communications-marketing': 'campaign',
};

/**
 * English display name and Material icon name of each cause (spec section 3): for the staff pages, exports and the
 * gateway's descriptions, which are English; donors read {@link causeName}.
 */
export const CAUSE_DETAILS: Record<Cause, { displayName: string; icon: CauseIconName }> = {
  'marine-protected-areas': { displayName: 'Marine Protected Areas Management', icon: CAUSE_ICONS['marine-protected-areas'] },
  'research-science': { displayName: 'Research and Science', icon: CAUSE_ICONS['research-science'] },
  'education-outreach': { displayName: 'Education and Outreach', icon: CAUSE_ICONS['education-outreach'] },
  'sustainable-development': { displayName: 'Sustainable Development of Reef Resources', icon: CAUSE_ICONS['sustainable-development'] },
  'communications-marketing': { displayName: 'Communications and Marketing', icon: CAUSE_ICONS['communications-marketing'] },
};

/** True when `value` is one of the five known causes. */
export function isCause(value: string): value is Cause {
  return (CAUSES as readonly string[]).includes(value);
}

/**
 * Display name and icon for any cause value; an unknown value shows itself with
 * the `favorite` icon (spec section 3: "An unknown cause shows its raw value with a favorite icon").
 */
export function describeCause(value: string): { displayName: string; icon: CauseIconName } {
  return isCause(value) ? CAUSE_DETAILS[value] : { displayName: value, icon: 'favorite' };
}

/**
 * Catalogue ids of the causes' names as donors read them (issue #24). The source catalogue's texts are the spec's
 * display names, the same as {@link CAUSE_DETAILS} (a test holds them equal); staff pages, exports and the payment
 * gateway's descriptions keep the English names of CAUSE_DETAILS.
 */
export const CAUSE_NAME_IDS: Record<Cause, string> = {
  'marine-protected-areas': /*i18n*/ 'cause.marine-protected-areas',
  'research-science': /*i18n*/ 'cause.research-science',
  'education-outreach': /*i18n*/ 'cause.education-outreach',
  'sustainable-development': /*i18n*/ 'cause.sustainable-development',
  'communications-marketing': /*i18n*/ 'cause.communications-marketing',
};

/** A cause's icon; an unknown value gets the `favorite` icon (spec section 3). */
export function causeIcon(value: string): CauseIconName {
  return isCause(value) ? CAUSE_ICONS[value] : 'favorite';
}

/** A cause's name in `i18n`'s language; an unknown value shows itself (spec section 3). */
export function causeName(i18n: I18n, value: string): string {
  return isCause(value) ? i18n._(CAUSE_NAME_IDS[value]) : value;
}
