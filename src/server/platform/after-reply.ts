import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/**
 * Work a route does after its answer has left, so that how long the answer takes says nothing about that work (issue
 * #32, part 6: the staff sign-in link's lookup; decision 0097c). Each piece of work is tracked: a rejection is logged,
 * never left unhandled, and the app's close waits for every piece started (graceful shutdown, decision 0050), before
 * the database is closed.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's work after replies (see {@link registerAfterReply}). */
    afterReply: AfterReply;
  }
}

/** Work started after a reply, and the wait for it. */
export interface AfterReply {
  /**
   * Starts `work` now and tracks it until it settles; a rejection is logged on `log` at error level with `event` and
   * the error. Never throws, and the promise of `work` is never left unhandled.
   */
  run(log: FastifyBaseLogger, event: string, work: () => Promise<void>): void;
  /** Resolves once every piece of work started so far has settled (the app's close; tests, before they look). */
  settled(): Promise<void>;
}

/**
 * Decorates `app` (the root instance) with `afterReply` and adds the `onClose` hook that waits for its work. NOTE: the
 * hook runs after the server stopped taking requests and finished those in flight (Fastify closes the server first),
 * so no work starts after it.
 */
export function registerAfterReply(app: FastifyInstance): AfterReply {
  const running = new Set<Promise<void>>();
  const afterReply: AfterReply = {
    run(log, event, work) {
      const tracked = Promise.resolve()
        .then(work)
        .catch((error: unknown) => log.error({ event, err: error }, 'Work after the reply failed'))
        .finally(() => running.delete(tracked));
      running.add(tracked);
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
  app.decorate('afterReply', afterReply);
  app.addHook('onClose', async () => afterReply.settled());
  return afterReply;
}
