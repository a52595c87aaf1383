/**
 * Builds the Stripe.js stand-in for the browser: `stripe-js.ts` (defines `window.Stripe`) and
 * `elements-frame.ts` (the card iframe) bundled by esbuild (installed with tsx and vite) into one
 * classic script each, once per process. Also the HTML of the iframe and of the redirect 3-D Secure page.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** The two browser scripts, as JavaScript text. */
export interface StripeJsBundle {
  /** Served at `/v3/stripe.js`: defines `window.Stripe`. */
  stripeJs: string;
  /** Served at `/elements-frame.js`: the card fields inside the iframe. */
  frameJs: string;
}

let bundle: Promise<StripeJsBundle> | null = null;

async function bundleOne(file: string): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(file, import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced nothing for ${file}`);
  return output.text;
}

/** Bundles both scripts (memoised: later calls share the first build). Rejects with esbuild's error. */
export function buildStripeJs(): Promise<StripeJsBundle> {
  bundle ??= Promise.all([bundleOne('./stripe-js.ts'), bundleOne('./elements-frame.ts')]).then(([stripeJs, frameJs]) => ({ stripeJs, frameJs }));
  return bundle;
}

/** The iframe document: its script renders the card fields (served at `/elements-frame.html`). */
export const ELEMENTS_FRAME_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Secure card payment input frame</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { margin: 0; font: 16px system-ui, sans-serif; color: #1a1a1a; }
  .row { display: flex; gap: 12px; }
  .field { display: flex; flex-direction: column; margin: 0 0 12px; flex: 1; }
  label { font-size: 14px; margin-bottom: 4px; }
  input { font: inherit; padding: 10px; border: 1px solid #8a8a8a; border-radius: 4px; }
  input:focus { outline: 2px solid #0570de; outline-offset: 1px; }
  input[aria-invalid="true"] { border-color: #df1b41; }
  .error { color: #df1b41; font-size: 14px; min-height: 1.2em; margin: 0; }
  dialog { border: 1px solid #8a8a8a; border-radius: 8px; padding: 16px; }
  dialog button { font: inherit; margin: 8px 8px 0 0; padding: 8px 12px; }
</style>
</head>
<body>
<div id="root"></div>
<script src="/elements-frame.js"></script>
</body>
</html>
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The page a `redirect_to_url` next action leads to (Stripe's test 3-D Secure page, simplified): two
 * buttons that post the outcome; the client secret comes from the intent's return URL query
 * (`payment_intent_client_secret`) and is asked for when absent.
 */
export function threeDSecurePage(intentId: string, returnUrl: string | null): string {
  const form = (outcome: string, label: string): string =>
    `<form method="post" action="/_stand-in/3ds/${escapeHtml(intentId)}">
<input type="hidden" name="outcome" value="${outcome}">
${returnUrl ? `<input type="hidden" name="return_url" value="${escapeHtml(returnUrl)}">` : ''}
<label>Client secret <input name="client_secret" required></label>
<button type="submit">${label}</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3D Secure test payment page</title></head>
<body><main><h1>3D Secure test payment page</h1><p>Stripe stand-in: authenticate the payment ${escapeHtml(intentId)}.</p>
${form('complete', 'Complete authentication')}${form('fail', 'Fail authentication')}</main></body></html>`;
}
