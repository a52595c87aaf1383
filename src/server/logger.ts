import { pino, type DestinationStream, type Logger } from 'pino';
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

/**
 * The server's pino logger: level from LOG_LEVEL, card fields and CSRF values redacted
 * ({@link REDACTED_PATHS}), errors logged without SQL parameters or quoted values (serializeError: no donor
 * details, issue #10), JSON lines to `destination` (stdout by default; tests pass an in-memory stream).
 */
export function createLogger(config: Pick<ServerConfig, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: [...REDACTED_PATHS], censor: '[Redacted]' },
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
