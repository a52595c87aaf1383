import { CAUSES } from '../../../shared/causes';
import { FREQUENCIES } from '../../../shared/frequencies';
import { MIN_AMOUNT_DOLLARS } from '../../../shared/money';
import { CAMPAIGN_PARAM, MAX_LINK_AMOUNT_DOLLARS, normalizeCampaignSlug, readLinkChoices, type LinkChoiceRules } from '../../../shared/campaign';
import { SESSION_KEYS } from '../../state/session-store';
import { SITE_CONFIG_META_NAME } from '../../../shared/site-config-meta';
import { EARLY_CHOICES_MARKUP, type EarlyChoicesMarkup } from './early-choices';

/**
 * What {@link applyLinkChoices} is given besides the markup names: the link's rules, the site config tag's name, the
 * campaign's query parameter and the sessionStorage key the donation form reads it from (campaign-memory.ts).
 */
export interface LinkScriptRules extends LinkChoiceRules {
  metaName: string;
  campaignParam: string;
  campaignKey: string;
}

/**
 * Runs in the pre-rendered page's `<head>`, after the early choices script (issue #23, section 1; decision 0079): makes
 * the choices of a campaign link (`/donate?amount=50&frequency=monthly&cause=research-science`) on the selection
 * screen's markup before the browser first paints it, so the donor never sees the defaults. A MutationObserver makes
 * each choice as soon as the parser has added its button (its callback runs at the end of that parser task, before
 * any rendering), and stops at Continue to Donation (the screen's last control). The choices are made by clicking the markup's buttons and typing into the custom field,
 * which the early choices script answers as it answers the donor (decision 0023): the markup then records them, the app
 * takes them when it is live, and the donor's own taps before then still count.
 * The smallest custom amount is the deployment's (the site config tag's `minAmountDollars`) when above `rules.minDollars`.
 * The link's campaign, when a well-formed slug (`slug`, {@link normalizeCampaignSlug}), is kept in sessionStorage under
 * `rules.campaignKey` for the rest of the visit: the form sends it with the donation (decision 0078).
 * NOTE: the page inlines this function's source, and {@link readLinkChoices}'s as `read`, {@link normalizeCampaignSlug}'s
 * as `slug`: it must use only its parameters and the browser's globals. No code of the app: /donate's JavaScript stays
 * as it was (decision 0020).
 */
export function applyLinkChoices(
  markup: EarlyChoicesMarkup,
  rules: LinkScriptRules,
  read: typeof readLinkChoices,
  slug: typeof normalizeCampaignSlug,
): void {
  const campaign = slug(new URLSearchParams(location.search).get(rules.campaignParam));
  try {
    if (campaign !== null) sessionStorage.setItem(rules.campaignKey, JSON.stringify(campaign));
  } catch {
    // storage refused (privacy modes): the gift is made without its campaign
  }
  if (!/[?&](amount|frequency|cause)=/.test(location.search)) return;
  let choices: ReturnType<typeof readLinkChoices> | undefined;
  const applied = new Set<string>();
  const apply = () => {
    const root = document.getElementById('root');
    if (!root) return false;
    if (!choices) {
      let minDollars = rules.minDollars;
      try {
        const meta = document.querySelector<HTMLMetaElement>(`meta[name="${rules.metaName}"]`);
        const configured: unknown = (JSON.parse(meta?.content ?? '{}') as { minAmountDollars?: unknown }).minAmountDollars;
        if (typeof configured === 'number' && configured > minDollars) minDollars = configured;
      } catch {
        // no readable site config: the build's minimum
      }
      choices = read(location.search, { ...rules, minDollars });
    }
    // Each choice as soon as its button is parsed, so a frame the browser paints before the parser reaches the end
    // of the screen already shows it (a slow phone's parser yields between chunks of the page).
    const press = (group: string, value: string) => {
      const button = root.querySelector<HTMLButtonElement>(`[${markup.group}="${group}"] button[value="${value}"]`);
      if (button && button.getAttribute('aria-pressed') !== 'true') button.click();
      if (button) applied.add(group);
      return !!button;
    };
    const { amount, frequency, cause } = choices;
    if (amount !== undefined && !applied.has('amount') && !press('amount', amount)) {
      // Not a preset, once the custom field (after the presets) is there: the custom amount.
      const input = root.querySelector<HTMLInputElement>(`[${markup.customField}] input`);
      if (input && press('amount', markup.customValue)) {
        input.value = amount;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
    }
    if (frequency !== undefined && !applied.has('frequency')) press('frequency', frequency);
    if (cause !== undefined && !applied.has('cause')) press('cause', cause);
    return !!root.querySelector(`[${markup.continueButton}]`);
  };
  const observer = new MutationObserver(() => {
    if (apply()) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** The rules the page's link script applies: the frequencies, causes, and the custom amount's bounds (issue #23). */
export const LINK_SCRIPT_RULES: LinkScriptRules = {
  frequencies: FREQUENCIES,
  causes: CAUSES,
  minDollars: MIN_AMOUNT_DOLLARS,
  maxDollars: MAX_LINK_AMOUNT_DOLLARS,
  metaName: SITE_CONFIG_META_NAME,
  campaignParam: CAMPAIGN_PARAM,
  campaignKey: SESSION_KEYS.campaign,
};

/** The inline `<script>` of the pre-rendered page that runs {@link applyLinkChoices} (issue #23, decision 0079). */
export function linkChoicesScriptTag(): string {
  const args = [JSON.stringify(EARLY_CHOICES_MARKUP), JSON.stringify(LINK_SCRIPT_RULES), String(readLinkChoices), String(normalizeCampaignSlug)];
  return `<script>(${String(applyLinkChoices)})(${args.join(',')})</script>`;
}
