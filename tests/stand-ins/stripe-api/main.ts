/**
 * Runs the Stripe API stand-in as a process, for trying Stripe mode by hand or as a Playwright
 * `webServer`: `tsx tests/stand-ins/stripe-api/main.ts`. Reads STRIPE_STAND_IN_PORT (default 12111),
 * STRIPE_WEBHOOK_URL and STRIPE_WEBHOOK_SECRET; prints the URL and keys; stops on SIGINT/SIGTERM.
 * Test controls (disputes, failures, held deliveries) exist only in-process: use `startStripeApiStandIn`.
 */
import { startStripeApiStandIn } from './server.js';

const standIn = await startStripeApiStandIn({
  port: Number(process.env.STRIPE_STAND_IN_PORT ?? 12111),
  webhookUrl: process.env.STRIPE_WEBHOOK_URL,
  webhookSecret: process.env.STRIPE_WEBHOOK_SECRET,
});
console.log(`Stripe API stand-in on ${standIn.url} (STRIPE_API_URL=${standIn.url} STRIPE_JS_URL=${standIn.stripeJsUrl})`);
console.log(`keys: ${standIn.secretKey} ${standIn.publishableKey}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void standIn.close().then(() => process.exit(0));
  });
}
