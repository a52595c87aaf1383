import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import type { Logger } from 'pino';
import { API_PATHS, CSRF_HEADER_NAME, IDEMPOTENCY_KEY_HEADER } from '../../shared/api';
import { createLogger } from '../platform/logger';
import type { CsrfCredentials, TestApp } from './test-app';

/**
 * Helpers of the card-testing tests (issue #4): payment attempts from a chosen client IP, and a logger that
 * keeps every line in memory so a test can find the structured events it expects.
 */

const credentials = new WeakMap<TestApp, Promise<CsrfCredentials>>();

/**
 * POSTs `body` to /api/process-donation as if from `remoteAddress` (app.inject's client IP), with the CSRF
 * cookie pair of one page load of `t` (fetched once per app) and `idempotencyKey` when given.
 */
export async function attemptFrom(
  t: TestApp,
  remoteAddress: string,
  body: unknown,
  idempotencyKey?: string,
): Promise<LightMyRequestResponse> {
  if (!credentials.has(t)) credentials.set(t, t.csrf());
  const csrf = await (credentials.get(t) as Promise<CsrfCredentials>);
  return t.app.inject({
    method: 'POST',
    url: API_PATHS.processDonation,
    remoteAddress,
    headers: {
      cookie: csrf.cookie,
      [CSRF_HEADER_NAME]: csrf.token,
      ...(idempotencyKey === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey }),
    },
    payload: body as object,
  });
}

/** One parsed log line: pino's fields plus whatever the code logged. */
export type LogEntry = Record<string, unknown> & { msg?: string; event?: string };

/** A pino logger (the app's createLogger, at `info`) writing into memory, with its lines. */
export interface MemoryLog {
  logger: Logger;
  /** Every line written so far, as written (JSON text). */
  readonly lines: string[];
  /** The parsed lines whose `event` is `event`. */
  events(event: string): LogEntry[];
}

/** Creates a {@link MemoryLog}. */
export function memoryLog(): MemoryLog {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return {
    logger: createLogger({ logLevel: 'info' }, stream),
    lines,
    events: (event) => lines.map((line) => JSON.parse(line) as LogEntry).filter((entry) => entry.event === event),
  };
}
