import type { FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';
import { RECEIPT_PDF_PATH } from '../../shared/receipt-link';
import { MANAGE_PLAN_API_PATH, MANAGE_PLAN_PAGE_PATH } from '../../shared/recurring';
import type { ServerConfig } from './config';
import { serializeError } from './error-serializer';

/**
 * Paths pino removes from every log line (issue #2: "The full card number and the CVV are never stored
 * and never logged (pino redaction on request bodies), not even in test mode"; PCI DSS 3.2, 3.4).
 * Covers the submission body however it is logged (`req.body`, `body`, top level or one level down),
 * the gateway's card object, and the cookies and header that carry the CSRF secret and token.
 * NOTE: pino's `*` matches exactly one level, hence the explicit deeper paths.
 */
export const REDACTED_PATHS: readonly string[] = [
  'req.body.creditCard.number',
  'req.body.creditCard.cvv',
  'request.body.creditCard.number',
  'request.body.creditCard.cvv',
  'body.creditCard.number',
  'body.creditCard.cvv',
  'creditCard.number',
  'creditCard.cvv',
  '*.creditCard.number',
  '*.creditCard.cvv',
  'card.number',
  'card.cvc',
  '*.card.number',
  '*.card.cvc',
  'cvv',
  'cvc',
  'pan',
  '*.cvv',
  '*.cvc',
  '*.pan',
  'req.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
];

/** Escapes `text` for a regular expression. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The paths whose next segment is a capability token, a link that works without an account for years: a receipt's
 * PDF (decision 0042) and a plan's manage page and API (issue #13). Whoever reads the logs must not be able to use
 * them, so the token is masked in every URL logged.
 */
const CAPABILITY_URL = new RegExp(
  `^(${[RECEIPT_PDF_PATH, MANAGE_PLAN_PAGE_PATH, MANAGE_PLAN_API_PATH].map((path) => escapeRegExp(path.replace(':token', ''))).join('|')})[^/?#]+`,
);

/** `url` with the token of a capability link masked (`/donate/manage/[token]`); any other URL as it is. */
export function maskCapabilityToken(url: string): string {
  return url.replace(CAPABILITY_URL, '$1[token]');
}

/**
 * How a request is logged: a Fastify request as Fastify logs it (method, URL, host, client address and port), its
 * URL with any capability token masked (maskCapabilityToken); any other object logged under `req` as it is, its `url`
 * masked (the redaction of REDACTED_PATHS still applies to it).
 */
function serializeRequest(logged: Record<string, unknown>): Record<string, unknown> {
  if ('raw' in logged && typeof logged.url === 'string') {
    const { method, url, host, ip, socket } = logged as unknown as FastifyRequest;
    return { method, url: maskCapabilityToken(url), host, remoteAddress: ip, remotePort: socket?.remotePort };
  }
  return typeof logged.url === 'string' ? { ...logged, url: maskCapabilityToken(logged.url) } : logged;
}

/**
 * The server's pino logger: level from LOG_LEVEL, card fields and CSRF values redacted
 * ({@link REDACTED_PATHS}), errors logged without SQL parameters or quoted values (serializeError: no donor
 * details, issue #10), requests without the tokens of capability links (serializeRequest), JSON lines to
 * `destination` (stdout by default; tests pass an in-memory stream).
 */
export function createLogger(config: Pick<ServerConfig, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: [...REDACTED_PATHS], censor: '[Redacted]' },
    serializers: { err: serializeError, req: serializeRequest },
  };
  return destination ? pino(options, destination) : pino(options);
}
