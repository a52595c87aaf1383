import { z } from 'zod';
import { DEFAULT_FEE_COVERAGE, type FeeCoverageSettings } from '../../shared/fee-coverage';
import { MAX_CAMPAIGN_SLUG_LENGTH, normalizeCampaignSlug } from '../../shared/campaign';

/**
 * The environment variables of campaign links and fee coverage (issue #23; decision 0078), validated one by one in
 * config.ts's EnvSchema, and what they become.
 */

/** Most campaigns CAMPAIGNS may list. */
const MAX_CAMPAIGNS = 200;

/**
 * CAMPAIGNS: campaign slugs, separated by commas (spaces around them ignored), each letters, digits and dashes, at most
 * 64 characters; lower-cased (slugs are compared without case). Since issue #34 campaigns live in the database: the
 * first start after that change makes each one a live campaign, once (campaigns/upgrade.ts; decision 0101).
 */
const campaignsVar = z.string().transform((value, ctx) => {
  const slugs = value.split(',').map((slug) => slug.trim()).filter((slug) => slug !== '');
  const normalized = slugs.map(normalizeCampaignSlug);
  if (normalized.some((slug) => slug === null)) {
    ctx.addIssue({ code: 'custom', message: `must list slugs of letters, digits and dashes, at most ${MAX_CAMPAIGN_SLUG_LENGTH} characters each, separated by commas` });
    return z.NEVER;
  }
  const unique = [...new Set(normalized as string[])];
  if (unique.length > MAX_CAMPAIGNS) {
    ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_CAMPAIGNS} campaigns` });
    return z.NEVER;
  }
  return unique;
});

/** The longest a campaign's public figures may be cached, in ms (issue #34: "figures at most 60 seconds old"). */
export const CAMPAIGN_FIGURES_MAX_AGE_MS = 60_000;

/**
 * CAMPAIGN_FIGURES_MAX_AGE_MS: how long a process keeps a campaign's public figures, 0 to 60,000 ms (default 60,000).
 * Shorter only for tests that watch a figure move.
 */
const figuresMaxAgeMsVar = z
  .string()
  .regex(/^\d{1,5}$/, `must be a whole number of milliseconds from 0 to ${CAMPAIGN_FIGURES_MAX_AGE_MS}`)
  .transform(Number)
  .pipe(z.number().int().max(CAMPAIGN_FIGURES_MAX_AGE_MS, `must be a whole number of milliseconds from 0 to ${CAMPAIGN_FIGURES_MAX_AGE_MS}`));

/** FEE_COVERAGE_PERCENT: 0 to 50, at most 3 decimals (2.9 means 2.9 %). */
const feePercentVar = z
  .string()
  .regex(/^\d{1,2}(\.\d{1,3})?$/, 'must be a percentage from 0 to 50 with at most 3 decimals, like 2.9')
  .transform(Number)
  .pipe(z.number().max(50, 'must be a percentage from 0 to 50 with at most 3 decimals, like 2.9'));

/** FEE_COVERAGE_FIXED_CENTS: a whole number of cents from 0 to 1000. */
const feeFixedCentsVar = z
  .string()
  .regex(/^\d{1,4}$/, 'must be a whole number of cents from 0 to 1000')
  .transform(Number)
  .pipe(z.number().int().max(1000, 'must be a whole number of cents from 0 to 1000'));

/** The variables' schemas, for config.ts's EnvSchema (each wrapped there as optional). */
export const CAMPAIGN_FEE_VARS = {
  CAMPAIGNS: campaignsVar,
  CAMPAIGN_FIGURES_MAX_AGE_MS: figuresMaxAgeMsVar,
  FEE_COVERAGE: z.enum(['on', 'off'], { error: 'must be on or off' }),
  FEE_COVERAGE_PERCENT: feePercentVar,
  FEE_COVERAGE_FIXED_CENTS: feeFixedCentsVar,
} as const;

/** The raw variables as validated. */
export interface CampaignFeeVars {
  CAMPAIGNS?: string[];
  CAMPAIGN_FIGURES_MAX_AGE_MS?: number;
  FEE_COVERAGE?: 'on' | 'off';
  FEE_COVERAGE_PERCENT?: number;
  FEE_COVERAGE_FIXED_CENTS?: number;
}

/**
 * The fee the form offers to cover (issue #23, section 2): FEE_COVERAGE_PERCENT (default 2.9) and
 * FEE_COVERAGE_FIXED_CENTS (default 30), or null with FEE_COVERAGE=off (the checkbox is hidden, and a `coverFee: true`
 * the server is sent adds nothing).
 */
export function feeCoverageSettings(vars: CampaignFeeVars): FeeCoverageSettings | null {
  if (vars.FEE_COVERAGE === 'off') return null;
  return {
    percent: vars.FEE_COVERAGE_PERCENT ?? DEFAULT_FEE_COVERAGE.percent,
    fixedCents: vars.FEE_COVERAGE_FIXED_CENTS ?? DEFAULT_FEE_COVERAGE.fixedCents,
  };
}
