/**
 * Settings of the Stripe gateway (`PAYMENT_GATEWAY=stripe`; issue #11), checked together at start-up: a
 * charity switches to live payments by setting STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and
 * STRIPE_WEBHOOK_SECRET, and a mistake stops the server with a message that names the variable.
 */

/**
 * Where the page loads Stripe.js from by default (Stripe: "always load Stripe.js directly from https://js.stripe.com"):
 * the release train `@stripe/stripe-js` is built for (its RELEASE_TRAIN, `endive`), matching the API version of `stripe`.
 */
export const DEFAULT_STRIPE_JS_URL = 'https://js.stripe.com/endive/stripe.js';

/** The Stripe gateway's settings. */
export interface StripeSettings {
  /** STRIPE_SECRET_KEY: `sk_test_`/`sk_live_` (or a restricted `rk_` key); server only, never sent to the page. */
  secretKey: string;
  /** STRIPE_PUBLISHABLE_KEY: `pk_test_`/`pk_live_`, of the same mode as the secret key; handed to the page. */
  publishableKey: string;
  /** STRIPE_WEBHOOK_SECRET: `whsec_...`, the signing secret of the webhook endpoint registered in Stripe's Dashboard. */
  webhookSecret: string;
  /** STRIPE_API_URL: the API stand-in in tests; unset (Stripe's API) otherwise, and refused in production. */
  apiUrl: string | undefined;
  /** STRIPE_JS_URL: Stripe.js's address ({@link DEFAULT_STRIPE_JS_URL}; the Stripe.js stand-in in tests). */
  jsUrl: string;
}

/** The raw variables, as validated one by one in config.ts. */
export interface StripeVars {
  STRIPE_SECRET_KEY?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_URL?: string;
  STRIPE_JS_URL?: string;
}

/** `test` or `live`, from a key's prefix (`sk_test_`, `pk_live_`, `rk_test_`...), or undefined when it has neither. */
const modeOf = (key: string) => /^(?:sk|pk|rk)_(test|live)_/.exec(key)?.[1];

/**
 * The Stripe settings, or an Error naming what is wrong: a missing key; a secret key that is not `sk_`/`rk_`;
 * a publishable key that does not start with `pk_`; keys of two modes (`sk_test_` with `pk_live_`); a
 * webhook secret that is not `whsec_`; STRIPE_API_URL in production (the stand-in is for tests only).
 */
export function stripeSettings(vars: StripeVars, isProduction: boolean): StripeSettings {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_PUBLISHABLE_KEY: publishableKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = vars;
  const missing = Object.entries({ STRIPE_SECRET_KEY: secretKey, STRIPE_PUBLISHABLE_KEY: publishableKey, STRIPE_WEBHOOK_SECRET: webhookSecret })
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length > 0 || !secretKey || !publishableKey || !webhookSecret) {
    throw new Error(`Invalid configuration: PAYMENT_GATEWAY=stripe needs ${missing.join(', ')}`);
  }
  if (!/^(sk|rk)_(test|live)_\w+$/.test(secretKey)) {
    throw new Error('Invalid configuration: STRIPE_SECRET_KEY must be a secret key (sk_test_..., sk_live_... or a restricted rk_ key)');
  }
  if (!/^pk_(test|live)_\w+$/.test(publishableKey)) {
    throw new Error('Invalid configuration: STRIPE_PUBLISHABLE_KEY must be a publishable key, starting with pk_');
  }
  if (modeOf(secretKey) !== modeOf(publishableKey)) {
    throw new Error(
      `Invalid configuration: STRIPE_SECRET_KEY is a ${modeOf(secretKey)} key but STRIPE_PUBLISHABLE_KEY a ${modeOf(publishableKey)} key; use the keys of one mode`,
    );
  }
  if (!/^whsec_\w+$/.test(webhookSecret)) {
    throw new Error('Invalid configuration: STRIPE_WEBHOOK_SECRET must be a webhook signing secret, starting with whsec_');
  }
  if (isProduction && vars.STRIPE_API_URL) {
    throw new Error('Invalid configuration: STRIPE_API_URL points at a stand-in of Stripe and is refused when NODE_ENV=production');
  }
  return { secretKey, publishableKey, webhookSecret, apiUrl: vars.STRIPE_API_URL, jsUrl: vars.STRIPE_JS_URL ?? DEFAULT_STRIPE_JS_URL };
}
