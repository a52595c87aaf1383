import { CAMPAIGN_PARAM, normalizeCampaignSlug } from '../../shared/campaign';
import { readSessionItem, SESSION_KEYS, writeSessionItem, type SessionValidator } from './session-store';

/** Validates a stored campaign: a well-formed slug (issue #23), as {@link normalizeCampaignSlug} reads it. */
const StoredCampaign: SessionValidator<string> = {
  safeParse: (value) => {
    const slug = normalizeCampaignSlug(value);
    return slug === null ? { success: false } : { success: true, data: slug };
  },
};

/**
 * Keeps the campaign of the page's link (issue #23, section 1: "kept through the flow"): the `campaign` parameter of
 * `search` when it is a well-formed slug, in sessionStorage for the rest of the tab's visit (a later link without one
 * leaves it; one with another replaces it). A malformed slug is ignored. Whether the campaign is known is the server's
 * call (CAMPAIGNS), when it records the donation.
 */
export function rememberLinkCampaign(search: string): void {
  const slug = normalizeCampaignSlug(new URLSearchParams(search).get(CAMPAIGN_PARAM));
  if (slug !== null) writeSessionItem(SESSION_KEYS.campaign, StoredCampaign, slug);
}

/** The campaign kept by {@link rememberLinkCampaign}, or null. */
export function rememberedCampaign(): string | null {
  return readSessionItem(SESSION_KEYS.campaign, StoredCampaign);
}
