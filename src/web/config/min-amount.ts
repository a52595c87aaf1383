import { MIN_AMOUNT_DOLLARS } from '../../shared/money';
import { isMinAmountDollars, SITE_CONFIG_META_NAME } from '../../shared/site-config-meta';

/**
 * Reads the smallest donation, in dollars, that the server writes into the page's site config
 * (`<meta name="site-config" content='{"minAmountDollars": 5, ...}'>`; MIN_DONATION_AMOUNT, issue #4).
 * Returns the spec's $1 when there is no document (pre-rendering at build time), no tag (`vite` dev), or
 * no valid amount in it. NOTE: plain code, no zod: the landing screen uses it (decision 0020).
 */
export function readMinAmountDollars(doc: Document | undefined = globalThis.document): number {
  const content = doc?.querySelector<HTMLMetaElement>(`meta[name="${SITE_CONFIG_META_NAME}"]`)?.content;
  if (!content) return MIN_AMOUNT_DOLLARS;
  try {
    const value: unknown = (JSON.parse(content) as { minAmountDollars?: unknown } | null)?.minAmountDollars;
    return isMinAmountDollars(value) ? value : MIN_AMOUNT_DOLLARS;
  } catch {
    return MIN_AMOUNT_DOLLARS;
  }
}

let cached: number | undefined;

/** The page's smallest donation in dollars (see {@link readMinAmountDollars}), read once per page load in the browser. */
export function getMinAmountDollars(): number {
  if (typeof document === 'undefined') return MIN_AMOUNT_DOLLARS;
  cached ??= readMinAmountDollars(document);
  return cached;
}
