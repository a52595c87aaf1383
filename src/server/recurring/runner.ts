import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../platform/clock';
import { runBilling, type BillingDeps, type BillingReport } from './billing';
import { startPeriodicRunner } from '../platform/periodic-runner';

/** A running billing runner: `stop` ends the loop after the current run. */
export interface RunningBilling {
  /** Stops the loop and resolves once the current run is over: at once after the plan at hand (graceful shutdown, issue #14). */
  stop(): Promise<void>;
}

/**
 * Starts the billing runner (issue #13): a run now, then one `intervalMs` (BILLING_INTERVAL_MS) after each run ends,
 * never two at once in this process, each at the clock's now (DESIGN.md, "Time"). A failed run is logged and the
 * next one happens on schedule. Several processes share the work through the claims' row locks (claimDuePlans).
 */
export function startBillingRunner(deps: BillingDeps & { clock: Clock; log: FastifyBaseLogger }, intervalMs: number): RunningBilling {
  return startPeriodicRunner({
    intervalMs,
    run: async (signal) => {
      const report: BillingReport = await runBilling(deps, deps.clock.now(), signal);
      if (report.charged + report.failed + report.skipped > 0) deps.log.info({ billing: report }, 'Billing run finished');
    },
    onError: (error) => deps.log.error({ err: error }, 'Billing run failed; retrying at the next interval'),
  });
}
