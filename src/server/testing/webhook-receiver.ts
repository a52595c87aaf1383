import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A real receiving HTTP server for webhook tests (issue #38, "Must be shown"): on 127.0.0.1, it verifies every message
 * it gets with the Standard Webhooks library (as a charity's CRM would) against the secrets a test gives it, records
 * each one, and answers as the test says (200 by default; a status, or never).
 */

/** One message received: its headers, its body (parsed), and which of the receiver's secrets verified it. */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: { type: string; timestamp: string; version: number; data: Record<string, unknown> };
  /** The secrets (as given to the receiver) whose verification passed; empty when none did. */
  verifiedWith: string[];
}

/** How to answer the next message: a status (and body), or `never` (keep the connection open without answering). */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | 'never';

/** A running receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  /** Every message received, in order. */
  readonly received: ReceivedWebhook[];
  /** The secrets each message is verified with (set them once the endpoint is created or rotated). */
  secrets: string[];
  /** Answers, in order, to the next messages; once used up, `fallback` (200 by default). */
  answers: ReceiverAnswer[];
  fallback: ReceiverAnswer;
  /** Stops listening and drops every open connection. */
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (a free port). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const state = { secrets: [] as string[], answers: [] as ReceiverAnswer[], fallback: { status: 200, body: 'ok' } as ReceiverAnswer };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(request.headers[name] ?? '');
      const headers = { 'webhook-id': header('webhook-id'), 'webhook-timestamp': header('webhook-timestamp'), 'webhook-signature': header('webhook-signature') };
      const verifiedWith = state.secrets.filter((secret) => {
        try {
          new Webhook(secret).verify(raw, headers);
          return true;
        } catch {
          return false;
        }
      });
      received.push({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'], body: JSON.parse(raw) as ReceivedWebhook['body'], verifiedWith });
      const answer = state.answers.shift() ?? state.fallback;
      if (answer === 'never') return;
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      response.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    get secrets() {
      return state.secrets;
    },
    set secrets(value) {
      state.secrets = value;
    },
    get answers() {
      return state.answers;
    },
    set answers(value) {
      state.answers = value;
    },
    get fallback() {
      return state.fallback;
    },
    set fallback(value) {
      state.fallback = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
