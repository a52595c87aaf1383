import { z } from 'zod';
import { MIN_AMOUNT_DOLLARS } from './money';
import { isMinAmountDollars } from './site-config-meta';

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
});
/** `{organizationUrl, publicUrl, minAmountDollars, payments}`: two absolute URLs, an amount in dollars and the card's way in. */
export type SiteConfig = z.infer<typeof SiteConfigSchema>;

/** Defaults: UNESCO's page of the Belize Barrier Reef Reserve System, the local server, and the spec's $1. */
export const DEFAULT_SITE_CONFIG: SiteConfig = {
  organizationUrl: 'https://whc.unesco.org/en/list/764/',
  publicUrl: 'http://localhost:3000',
  minAmountDollars: MIN_AMOUNT_DOLLARS,
  payments: { gateway: 'test' },
};
