/**
 * Campaign links (issue #23, section 1): `/donate?amount=50&frequency=monthly&cause=research-science&campaign=spring`.
 * Plain code, no zod: /donate reads it (decision 0020).
 */

/** Query parameter naming a campaign. */
export const CAMPAIGN_PARAM = 'campaign';

/** Longest campaign slug, in characters (issue #23). */
export const MAX_CAMPAIGN_SLUG_LENGTH = 64;

/**
 * The campaign slug `value` names, lower-cased (decision 0078: slugs are compared without case), or null when it is not a
 * well-formed slug (letters, digits, dashes, 1 to {@link MAX_CAMPAIGN_SLUG_LENGTH} characters). Takes anything.
 * NOTE: the pre-rendered page inlines this function's source (campaign-link-script.ts): it must use only its parameter.
 */
export function normalizeCampaignSlug(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(value) ? value.toLowerCase() : null;
}

/** The choices a campaign link makes, each present only when its value is valid (issue #23, section 1). */
export interface LinkChoices {
  /** A preset or custom amount in dollars, as written in the link (e.g. '50', '12.5'). */
  amount?: string;
  frequency?: string;
  cause?: string;
}

/** What {@link readLinkChoices} accepts: the presets' dollars, the frequencies, the causes, and the custom amount's bounds. */
export interface LinkChoiceRules {
  frequencies: readonly string[];
  causes: readonly string[];
  /** Smallest custom amount in dollars (the deployment's MIN_DONATION_AMOUNT). */
  minDollars: number;
  /** Largest amount a link may choose, in dollars (issue #23: $100,000). */
  maxDollars: number;
}

/** Largest amount a campaign link may choose, in dollars (issue #23, section 1). */
export const MAX_LINK_AMOUNT_DOLLARS = 100_000;

/**
 * The choices of a campaign link's query string `search` (issue #23, section 1): `amount` (a dollar figure with at most
 * two decimals, from `rules.minDollars` to `rules.maxDollars`), `frequency` and `cause` (one of the rules' values). A
 * value that is not valid is left out without an error; the rest still applies.
 * NOTE: the pre-rendered page inlines this function's source (campaign-link-script.ts): it must use only its parameters
 * and the browser's globals.
 */
export function readLinkChoices(search: string, rules: LinkChoiceRules): LinkChoices {
  const params = new URLSearchParams(search);
  const choices: LinkChoices = {};
  const amount = params.get('amount');
  if (amount !== null && /^\d{1,6}(\.\d{1,2})?$/.test(amount) && Number(amount) >= rules.minDollars && Number(amount) <= rules.maxDollars) {
    choices.amount = String(Number(amount));
  }
  const frequency = params.get('frequency');
  if (frequency !== null && rules.frequencies.includes(frequency)) choices.frequency = frequency;
  const cause = params.get('cause');
  if (cause !== null && rules.causes.includes(cause)) choices.cause = cause;
  return choices;
}
