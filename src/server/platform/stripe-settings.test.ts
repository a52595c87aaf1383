import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { DEFAULT_STRIPE_JS_URL } from './stripe-settings';

/** PAYMENT_GATEWAY=stripe (issue #11): "the server refuses to start in Stripe mode with a missing key, a publishable key that does not start with pk_, or a secret key of the other mode". */
describe('Stripe settings', () => {
  const keys = { STRIPE_SECRET_KEY: 'sk_test_51abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_51abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
  const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', PAYMENT_GATEWAY: 'stripe', ...env });

  it('takes the three keys, with Stripe.js from js.stripe.com and no API stand-in by default', () => {
    expect(load(keys).stripe).toEqual({
      secretKey: 'sk_test_51abc',
      publishableKey: 'pk_test_51abc',
      webhookSecret: 'whsec_abc123',
      apiUrl: undefined,
      jsUrl: DEFAULT_STRIPE_JS_URL,
    });
    expect(load({ ...keys, STRIPE_SECRET_KEY: 'rk_test_51abc' }).stripe?.secretKey).toBe('rk_test_51abc');
    expect(loadConfig({ NODE_ENV: 'test' }).stripe).toBeUndefined();
  });

  it.each([
    [{ STRIPE_SECRET_KEY: '' }, /needs STRIPE_SECRET_KEY/],
    [{ STRIPE_PUBLISHABLE_KEY: '' }, /needs STRIPE_PUBLISHABLE_KEY/],
    [{ STRIPE_WEBHOOK_SECRET: '' }, /needs STRIPE_WEBHOOK_SECRET/],
    [{ STRIPE_PUBLISHABLE_KEY: 'sk_test_51abc' }, /STRIPE_PUBLISHABLE_KEY must be a publishable key, starting with pk_/],
    [{ STRIPE_SECRET_KEY: 'pk_test_51abc' }, /STRIPE_SECRET_KEY must be a secret key/],
    [{ STRIPE_PUBLISHABLE_KEY: 'pk_live_51abc' }, /STRIPE_SECRET_KEY is a test key but STRIPE_PUBLISHABLE_KEY a live key/],
    [{ STRIPE_SECRET_KEY: 'sk_live_51abc' }, /STRIPE_SECRET_KEY is a live key but STRIPE_PUBLISHABLE_KEY a test key/],
    [{ STRIPE_WEBHOOK_SECRET: 'abc' }, /STRIPE_WEBHOOK_SECRET must be a webhook signing secret/],
    [{ STRIPE_API_URL: 'ftp://127.0.0.1:1' }, /STRIPE_API_URL must be an http/],
  ])('refuses to start with %o', (change, message) => {
    expect(() => load({ ...keys, ...change })).toThrow(message);
  });

  it('refuses an API stand-in in production', () => {
    const production = { NODE_ENV: 'production', COOKIE_SECRET: 'x'.repeat(40), STRIPE_API_URL: 'http://127.0.0.1:12111' };
    expect(() => load({ ...keys, ...production })).toThrow(/STRIPE_API_URL .* refused when NODE_ENV=production/);
  });
});
