import type { Cause } from '../../../shared/causes';
import type { DonationSelection } from '../../../shared/donation';
import type { Frequency } from '../../../shared/frequencies';
import { readLinkChoices } from '../../../shared/campaign';
import { LINK_SCRIPT_RULES } from './campaign-link-script';
import { rememberLinkCampaign } from '../../state/campaign-memory';

/** Module state: a page load's campaign link is applied once, by the first selection screen mounted (see {@link takeLinkSelection}). */
let linkTaken = false;

/**
 * The selection the screen starts from when it renders in the browser from scratch (not hydrating the pre-rendered
 * page, whose link choices the inline script made; issue #23, decision 0079): `stored` with the choices of the page's
 * campaign link over it, the first time a screen mounts in this page load; `stored` alone afterwards, so a donor who
 * comes back to /donate keeps what they chose since. `minDollars` is the deployment's minimum; an invalid value of the
 * link is ignored. `mountedByHydration` only marks the link as taken. The link's campaign is kept for the donation (issue #23).
 */
export function takeLinkSelection(
  stored: DonationSelection | null,
  minDollars: number,
  mountedByHydration: boolean,
): Partial<DonationSelection> | null {
  const search = linkTaken || typeof window === 'undefined' ? '' : window.location.search;
  if (typeof window !== 'undefined') linkTaken = true;
  rememberLinkCampaign(search);
  if (mountedByHydration) return null;
  const link = readLinkChoices(search, { ...LINK_SCRIPT_RULES, minDollars: Math.max(minDollars, LINK_SCRIPT_RULES.minDollars) });
  return {
    ...stored,
    ...(link.amount === undefined ? {} : { amount: Number(link.amount) }),
    ...(link.frequency === undefined ? {} : { frequency: link.frequency as Frequency }),
    ...(link.cause === undefined ? {} : { cause: link.cause as Cause }),
  };
}
