import { describe, expect, it } from 'vitest';
import { startPeriodicRunner } from './periodic-runner';

/** The runners' loop (periodic-runner.ts) as a graceful shutdown stops it (issue #14). */
describe('startPeriodicRunner', () => {
  it('stop aborts the signal of the run under way, resolves once that run returns, and starts no other', async () => {
    let runs = 0;
    let running = (): void => undefined;
    const inRun = new Promise<void>((resolve) => (running = resolve));
    const errors: unknown[] = [];
    const runner = startPeriodicRunner({
      intervalMs: 1,
      onError: (error) => errors.push(error),
      // A run that ends only when its signal is aborted: stop() resolves only if it aborts it.
      run: async (signal) => {
        runs += 1;
        running();
        if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        return signal.aborted;
      },
    });
    await inRun;
    await runner.stop();
    expect(runs).toBe(1);
    // A run asked for after the stop gets the aborted signal at once.
    expect(await runner.runNow()).toBe(true);
    expect(runs).toBe(2);
    expect(errors).toEqual([]);
  });
});
