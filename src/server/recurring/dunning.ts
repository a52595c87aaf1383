import { addDays } from './calendar';

/**
 * Dunning (issue #13): a declined renewal is retried DUNNING_RETRY_DAYS after its period's first decline (default
 * 1, 3 and 7 days); the plan is `past_due` meanwhile and `paused` once the last retry is declined. Pure: the billing
 * runner applies what this decides.
 */

/** What follows a declined try: a retry at `retryAt` (the plan past due), or the pause (no retry left). */
export type DunningStep = { action: 'retry'; retryAt: Date; retryCount: number; firstFailure: boolean } | { action: 'pause' };

/**
 * The step after a declined try of a period: `retriesMade` retries were made of it before this try (0 for the
 * period's first try), whose first decline was at `pastDueSince` (undefined when this try is that first decline,
 * made at `now`). With retry days [1, 3, 7]: the first decline is retried 1 day after it, then 3 and 7 days after
 * it; the decline of the third retry pauses the plan. `firstFailure` says when to e-mail the donor (issue #13).
 */
export function nextDunningStep(
  { retriesMade, pastDueSince, now }: { retriesMade: number; pastDueSince: Date | undefined; now: Date },
  retryDays: readonly number[],
): DunningStep {
  const days = retryDays[retriesMade];
  if (days === undefined) return { action: 'pause' };
  return { action: 'retry', retryAt: addDays(pastDueSince ?? now, days), retryCount: retriesMade + 1, firstFailure: retriesMade === 0 };
}
