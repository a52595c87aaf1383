import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerAfterReply } from './after-reply';

/**
 * Work after the reply (issue #32, part 6; decision 0097c): a failure is logged with its event, never an unhandled
 * rejection, and the app's close waits for the work still running.
 */

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => undefined as void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('work after the reply', () => {
  it('logs a failure with its event and lets the others finish', async () => {
    const app = Fastify();
    const afterReply = registerAfterReply(app);
    const logged: unknown[] = [];
    const log = { ...app.log, error: (entry: unknown) => logged.push(entry) } as typeof app.log;
    let done = false;
    afterReply.run(log, 'test.failed', async () => {
      throw new Error('database gone');
    });
    afterReply.run(log, 'test.failed', async () => {
      done = true;
    });
    await afterReply.settled();
    expect(done).toBe(true);
    expect(logged).toEqual([{ event: 'test.failed', err: new Error('database gone') }]);
    await app.close();
  });

  it("makes the app's close wait for the work still running", async () => {
    const app = Fastify();
    const afterReply = registerAfterReply(app);
    await app.ready();
    const work = deferred();
    let finished = false;
    afterReply.run(app.log, 'test.failed', async () => {
      await work.promise;
      finished = true;
    });
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    // The close is waiting: the work has not finished.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    work.resolve();
    await closing;
    expect(finished).toBe(true);
  });
});
