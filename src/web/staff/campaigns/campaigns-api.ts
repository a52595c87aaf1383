import type { StaffCampaign, StaffCampaignInputFields, StaffCampaignList } from '../../../shared/staff/campaigns-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { staffFetch } from '../api/staff-fetch';

/** The campaigns for `query` (the page's own query string: GET /api/staff/campaigns's, key for key). */
export function fetchCampaigns(query: string): Promise<StaffCampaignList> {
  return staffFetch(query ? `${STAFF_API.campaigns}?${query}` : STAFF_API.campaigns);
}

/** The page of campaign `id`. */
export function fetchCampaign(id: string): Promise<StaffCampaign> {
  return staffFetch(staffApiPath(STAFF_API.campaign, id));
}

/** Creates a campaign of `fields`, or replaces campaign `id`'s; resolves with its id. */
export function saveCampaign(fields: StaffCampaignInputFields, id?: string): Promise<{ id: string }> {
  return id === undefined
    ? staffFetch(STAFF_API.campaigns, { method: 'POST', json: fields })
    : staffFetch(staffApiPath(STAFF_API.campaign, id), { method: 'PUT', json: fields });
}

/** Hides the supporter of donation `donationId` from campaign `id`'s public list (audited); resolves with when. */
export function hideSupporter(id: string, donationId: string): Promise<{ hiddenAt: string }> {
  return staffFetch(staffApiPath(STAFF_API.campaignSupporterHide, id).replace(':donationId', encodeURIComponent(donationId)), { method: 'POST' });
}
