import { z } from 'zod';
import { MIN_AMOUNT_DOLLARS } from './money';
import { isMinAmountDollars } from './site-config-meta';
import { DEFAULT_FEE_COVERAGE } from './fee-coverage';

// NOTE: defined in a module without zod, so the landing screen can read the tag (decision 0020).
export { SITE_CONFIG_META_NAME } from './site-config-meta';

/**
 * Deployment settings the page needs, read by the server at start-up so one build serves any
 * deployment (issue #2): the organisation's site ('Learn More About Our Work'), the URL to share, and
 * the smallest donation (issue #4).
 */
export const SiteConfigSchema = z.object({
  organizationUrl: z.url(),
  publicUrl: z.url(),
  /** Smallest donation in dollars (MIN_DONATION_AMOUNT; issue #4): the custom amount field enforces it. */
  minAmountDollars: z.number().refine(isMinAmountDollars, 'must be an amount of at least 1 dollar'),
  /**
   * How the form takes the card (PAYMENT_GATEWAY; issue #11): the spec's own card fields (`test`), or Stripe's
   * Payment Element, with the publishable key and the address of Stripe.js (`stripe`; never the secret key).
   */
  payments: z
    .discriminatedUnion('gateway', [
      z.object({ gateway: z.literal('test') }),
      z.object({ gateway: z.literal('stripe'), publishableKey: z.string().startsWith('pk_'), stripeJsUrl: z.url() }),
    ])
    .default({ gateway: 'test' }),
  /** The card fee the form offers to cover (FEE_COVERAGE_PERCENT, FEE_COVERAGE_FIXED_CENTS; issue #23), null with FEE_COVERAGE=off. */
  feeCoverage: z.object({ percent: z.number().min(0).max(50), fixedCents: z.number().int().min(0).max(1000) }).nullable().default(DEFAULT_FEE_COVERAGE),
});
/** `{organizationUrl, publicUrl, minAmountDollars, payments}`: two absolute URLs, an amount in dollars and the card's way in. */
export type SiteConfig = z.infer<typeof SiteConfigSchema>;

/** Defaults: UNESCO's page of the Belize Barrier Reef Reserve System, the local server, and the spec's $1. */
export const DEFAULT_SITE_CONFIG: SiteConfig = {
  organizationUrl: 'https://whc.unesco.org/en/list/764/',
  publicUrl: 'http://localhost:3000',
  minAmountDollars: MIN_AMOUNT_DOLLARS,
  payments: { gateway: 'test' },
  feeCoverage: DEFAULT_FEE_COVERAGE,
};
