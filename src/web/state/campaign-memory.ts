import { normalizeCampaignSlug } from '../../shared/campaign';
import { readSessionItem, SESSION_KEYS, type SessionValidator } from './session-store';
import { embeddedCampaign } from '../embed/frame/embed-frame';

/** Validates a stored campaign: a well-formed slug (issue #23), as {@link normalizeCampaignSlug} reads it. */
const StoredCampaign: SessionValidator<string> = {
  safeParse: (value) => {
    const slug = normalizeCampaignSlug(value);
    return slug === null ? { success: false } : { success: true, data: slug };
  },
};

/**
 * The campaign of the link the donor came by in this tab's visit (issue #23, section 1: "kept through the flow"), or
 * null: the pre-rendered /donate's link script keeps a well-formed slug in sessionStorage (campaign-link-script.ts; a
 * later link with another campaign replaces it, one without leaves it). Whether the campaign is known is the server's
 * call (CAMPAIGNS), when it records the donation. Inside `<reef-donate>`'s frame without storage, the frame's first URL's campaign (issue #35).
 */
export function rememberedCampaign(): string | null {
  // NOTE: a frame on another site may get no sessionStorage (third-party storage blocked): the frame's own link then.
  return readSessionItem(SESSION_KEYS.campaign, StoredCampaign) ?? embeddedCampaign();
}
