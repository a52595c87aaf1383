import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * prom-client's default metrics (CPU, memory, event-loop lag, garbage collection, handles...: issue #14, "plus the
 * default process metrics") on a registry of their own, made once per process. NOTE: they describe the process, not
 * an app, and prom-client cannot stop their event-loop monitor and GC observer: one set per process, shared by
 * every app the process builds (tests build many), is both right and bounded.
 */

let processRegistry: Registry | undefined;

/** The registry of this process's default metrics, created (and its collectors started) on the first call. */
export function processMetricsRegistry(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
