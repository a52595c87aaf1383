import replyFrom from '@fastify/reply-from';
import Fastify from 'fastify';

/**
 * A small reverse proxy for the two-process tests (issue #14, "Two server processes ... behind a small reverse
 * proxy started by the test"): a Fastify server on a free port of 127.0.0.1 that forwards every request, body
 * untouched, to its upstreams in turn (round robin: request n goes to upstream n mod count, so consecutive
 * requests reach every process), as a load balancer in front of API processes does. It sets the headers an edge
 * proxy sets for servers run with TRUST_PROXY=true: X-Forwarded-For is the client's own address, replacing any
 * value the client sent (so a client cannot choose the IP the card-testing limits count it under),
 * X-Forwarded-Proto `http` and X-Forwarded-Host the Host the client asked for.
 */

/** A running proxy. */
export interface ReverseProxy {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** How many requests each upstream was sent, in the order of `upstreams`. */
  readonly forwarded: readonly number[];
  /** Stops listening and closes the upstream connections. */
  close(): Promise<void>;
}

/**
 * Starts the proxy in front of `upstreams` (base URLs, e.g. each {@link ServerProcess}'s `baseUrl`); resolves once
 * it listens. Rejects when `upstreams` is empty. An upstream that cannot be reached is answered 502/503/504 by
 * @fastify/reply-from; nothing is retried, since a payment request is not safe to send twice.
 */
export async function startReverseProxy(upstreams: readonly string[]): Promise<ReverseProxy> {
  if (upstreams.length === 0) throw new Error('A reverse proxy needs at least one upstream');
  const forwarded = upstreams.map(() => 0);
  let next = 0;
  // forceCloseConnections: close() ends the connections of requests still in flight too (a test that failed midway).
  const proxy = Fastify({ logger: false, forceCloseConnections: true });
  // Bodies pass through as the client sent them: no parser reads them.
  proxy.removeAllContentTypeParsers();
  proxy.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await proxy.register(replyFrom, { retryMethods: [] });
  proxy.all('/*', (request, reply) => {
    const index = next % upstreams.length;
    next += 1;
    forwarded[index] = (forwarded[index] ?? 0) + 1;
    return reply.from(`${upstreams[index]}${request.url}`, {
      rewriteRequestHeaders: (original, headers) => ({
        ...headers,
        'x-forwarded-for': original.socket.remoteAddress ?? '',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': original.headers.host ?? '',
      }),
    });
  });
  await proxy.listen({ host: '127.0.0.1', port: 0 });
  const address = proxy.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { baseUrl: `http://127.0.0.1:${port}`, forwarded, close: () => proxy.close() };
}
