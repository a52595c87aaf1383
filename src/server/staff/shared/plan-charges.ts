import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A plan's "charges so far" (issue #36, part 3: one meaning on every page; the donation, donor and plan pages all
 * show this one): how many of its gifts were charged, that is every gift of the plan whose money moved (succeeded,
 * refunded in part or in full, or disputed), the first gift included; neither a declined try (failed) nor one still
 * under way (pending) counts. One row per charged period, since a period charges at most once (issue #7's unique
 * (plan, period)).
 *
 * Takes the plan's id column or expression (`recurring_plans.id`); returns a correlated count, a number, answered from
 * the index of (recurring_plan_id, period, attempt). The first gift names its plan too (period 0: recurring/plans.ts).
 */
export function planChargeCountSql(planId: AnyPgColumn | SQL): SQL<number> {
  return sql<number>`(SELECT count(*) FROM donations charge
    WHERE charge.recurring_plan_id = ${planId} AND charge.status IN ('succeeded', 'refunded', 'disputed'))`.mapWith(Number);
}
