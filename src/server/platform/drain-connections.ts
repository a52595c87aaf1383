import type { FastifyInstance } from 'fastify';

/**
 * Lets the requests in flight finish when the app closes, without their keep-alive connections holding the close
 * (issue #14, graceful shutdown). `app.close()` stops accepting connections and closes the idle ones (Node's
 * `server.close()`), and Fastify answers 503 to a new request on an open one (`return503OnClosing`); but a request
 * already being handled keeps its connection open after its answer, until the client closes it or Fastify's
 * keep-alive timeout (72 s) ends it, and `close()` waits for it. So once closing, every answer says
 * `Connection: close` and Node ends its connection after sending it.
 */

/** Registers, on the root instance, the `preClose` hook that marks the app closing and the `onSend` hook that then adds `Connection: close`. */
export function registerConnectionDraining(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}
