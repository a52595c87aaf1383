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

/** Display name and Material icon name of each cause (spec section 3). */
export const CAUSE_DETAILS: Record<Cause, { displayName: string; icon: CauseIconName }> = {
  'marine-protected-areas': { displayName: 'Marine Protected Areas Management', icon: 'waves' },
  'research-science': { displayName: 'Research and Science', icon: 'science' },
  'education-outreach': { displayName: 'Education and Outreach', icon: 'school' },
  'sustainable-development': { displayName: 'Sustainable Development of Reef Resources', icon: 'eco' },
  'communications-marketing': { displayName: 'Communications and Marketing', icon: 'campaign' },
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
