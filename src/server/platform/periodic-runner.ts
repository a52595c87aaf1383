/**
 * The loop of the server's background runners (the reconciler, issue #3; the mail relay and the year-end statement
 * runner, issue #12; billing, issue #13): a run at start, then one `intervalMs` after each run ends, never two at once
 * in this process. A run that throws is handed to `onError` (logged) and the next one happens on schedule. A run gets
 * an AbortSignal that `stop` aborts (graceful shutdown, issue #14): a run over many items checks it between two items
 * and returns, so a shutdown waits for the current item only, not for the whole backlog.
 */

/** A started {@link startPeriodicRunner} loop. */
export interface PeriodicRunner<T> {
  /** Starts a run now, or right after the current one; resolves with its result (undefined when it threw). */
  runNow(): Promise<T | undefined>;
  /** Cancels the next run, aborts the current one's signal, and resolves once the current one is over. */
  stop(): Promise<void>;
}

/**
 * Starts the loop of `run` (see the module comment). `runNow` lets a caller (a test, an operator route) ask for a
 * run without waiting for the interval; the timer restarts after it.
 */
export function startPeriodicRunner<T>({
  run,
  intervalMs,
  onError,
}: {
  /** One run; `signal` is aborted when the runner stops: stop between two items once it is. */
  run: (signal: AbortSignal) => Promise<T>;
  intervalMs: number;
  onError: (error: unknown) => void;
}): PeriodicRunner<T> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  const stopping = new AbortController();

  const once = async (): Promise<T | undefined> => {
    clearTimeout(timer);
    try {
      return await run(stopping.signal);
    } catch (error) {
      onError(error);
      return undefined;
    } finally {
      if (!stopped) timer = setTimeout(() => void schedule(), intervalMs);
    }
  };
  const schedule = (): Promise<T | undefined> => {
    const next = current.then(once);
    current = next;
    return next;
  };
  void schedule();

  return {
    runNow: schedule,
    async stop() {
      stopped = true;
      stopping.abort();
      clearTimeout(timer);
      await current;
    },
  };
}
