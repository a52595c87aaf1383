import { CAMPAIGN_PARAM } from '../../../shared/campaign';
import { PATHS } from '../../../shared/site-paths';

/**
 * What the thank-you page's share buttons share (issue #23, section 1): with a campaign, a link to /donate with that
 * campaign and nothing else (never the donor's amount), e.g. `https://give.example.org/donate?campaign=spring-appeal`;
 * without one, the site's address `publicUrl` as before (issue #2).
 */
export function campaignShareUrl(publicUrl: string, campaign: string | null): string {
  if (campaign === null) return publicUrl;
  return `${publicUrl.replace(/\/+$/, '')}${PATHS.donate}?${new URLSearchParams({ [CAMPAIGN_PARAM]: campaign }).toString()}`;
}
