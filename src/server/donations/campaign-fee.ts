import type { FastifyRequest } from 'fastify';
import { normalizeCampaignSlug } from '../../shared/campaign';
import { chargeFor, type FeeCoverageSettings } from '../../shared/fee-coverage';

/**
 * What a donation records of campaign links and fee coverage (issue #23, sections 1 and 2; decision 0078).
 */

/** The deployment's side of issue #23: the fee it offers to cover (null: FEE_COVERAGE=off). */
export interface CampaignFeeSettings {
  feeCoverage: FeeCoverageSettings | null;
}

/** Nothing offered: no fee coverage (the routes' default, for an app built without it). */
export const NO_CAMPAIGN_FEE: CampaignFeeSettings = { feeCoverage: null };

/**
 * The columns of a donation of `giftCents` (issue #23): `amountCents`, the total charged (the gift plus the fee the
 * server computes when `coverFee` and the deployment offers it; never a fee from the browser), `feeCoveredCents`, and
 * `campaign`, the lower-cased slug when well-formed, else null; the ledger records it only while that campaign is live
 * (issue #34; ledger/campaign-entries.ts), so an unknown, draft, not yet open or ended one is recorded as none.
 */
export function campaignFeeColumns(
  giftCents: number,
  request: { coverFee?: boolean; campaign?: string },
  settings: CampaignFeeSettings,
): { amountCents: number; feeCoveredCents: number; campaign: string | null } {
  const { totalCents, feeCoveredCents } = chargeFor(giftCents, request.coverFee ?? false, settings.feeCoverage);
  return { amountCents: totalCents, feeCoveredCents, campaign: normalizeCampaignSlug(request.campaign) };
}

/**
 * Names a browser (or someone editing its request) might give a fee or a total the donor is to pay: never read; the
 * donor's choice is `coverFee` alone. Exact names, so that other unknown fields are still refused (strict schemas).
 */
export const IGNORED_FEE_FIELDS: readonly string[] = [
  'fee', 'fees', 'feeCents', 'feeAmount', 'feeCovered', 'feeCoveredCents', 'processingFee', 'processingFeeCents',
  'total', 'totalCents', 'totalAmount', 'amountWithFee', 'amountCents',
];

/** Removes every key of {@link IGNORED_FEE_FIELDS} from `value` (an object; anything else is left alone). */
function dropFeeFields(value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  for (const key of IGNORED_FEE_FIELDS) delete (value as Record<string, unknown>)[key];
}

/**
 * preValidation hook of the payment routes (issue #23, section 2: "the server computes the fee itself and never trusts a
 * fee from the browser"; decision 0078): drops the fee and total fields of {@link IGNORED_FEE_FIELDS} from the body and
 * from its `donation` / `donationData`, so a tampered fee is ignored rather than refused, and the strict schemas then
 * see the rest. `coverFee` alone is the donor's choice.
 */
export async function ignoreBrowserFee(request: FastifyRequest): Promise<void> {
  const body = request.body as Record<string, unknown> | null | undefined;
  if (typeof body !== 'object' || body === null) return;
  dropFeeFields(body);
  dropFeeFields(body.donation);
  dropFeeFields(body.donationData);
}
