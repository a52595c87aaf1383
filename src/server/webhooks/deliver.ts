import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { CheckedTarget } from './target';

/**
 * One HTTP try of a webhook (issue #38, "Delivery" and "Not a door into the charity's network"; decision 0106): a POST
 * of the signed body to the checked target, connected to the address the check resolved (the socket's lookup answers
 * that address only, so no second DNS answer is used; TLS still verifies the certificate against the URL's host name),
 * redirects never followed (node:http follows none: a 3xx is an answer like any other), the answer read up to
 * {@link MAX_ANSWER_BYTES} and the whole try bounded by `timeoutMs`.
 */

/** Most bytes of an answer read (issue #38: "answers are read up to 64 kB"); the rest is dropped with the connection. */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** Characters of the answer kept in the delivery log ("the start of the answer"). */
export const ANSWER_START_CHARS = 500;

/** What a try got: the status (undefined when no answer came: `error` says why), the answer's start, the latency in ms. */
export interface TryResult {
  statusCode: number | undefined;
  responseStart: string;
  latencyMs: number;
  error?: string;
}

/** A socket lookup that answers `pinned` whatever it is asked (net.connect's `lookup`, with or without `all`). */
function pinnedLookup(pinned: CheckedTarget['address']): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

/**
 * POSTs `body` (JSON) with `headers` to `target`, giving up after `timeoutMs`. Resolves with what came back; never
 * rejects (a refused connection, a reset, a TLS failure or the timeout is a result without a status).
 */
export function postWebhook(target: CheckedTarget, headers: Record<string, string>, body: string, timeoutMs: number): Promise<TryResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<TryResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<TryResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const client = target.url.protocol === 'https:' ? https : http;
    const request = client.request(target.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'reef-donations-webhooks/1' },
      lookup: pinnedLookup(target.address),
      // NOTE: no connection reuse: each try connects to the address just checked.
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy(new Error('timeout'));
      finish({ statusCode: undefined, responseStart: '', error: `No answer within ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (error) => finish({ statusCode: undefined, responseStart: '', error: error.message || 'connection failed' }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const done = () => {
        const text = Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
        finish({ statusCode: response.statusCode, responseStart: text.slice(0, ANSWER_START_CHARS) });
      };
      response.on('data', (chunk: Buffer) => {
        if (received < MAX_ANSWER_BYTES) chunks.push(chunk);
        received += chunk.length;
        if (received >= MAX_ANSWER_BYTES) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
