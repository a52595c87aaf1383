import { sql, type SQL } from 'drizzle-orm';
import { recurringPlans } from '../../db/schema';

/**
 * A plan's "charges so far" (issue #36, part 3: one meaning on every page; the donation, donor and plan pages all
 * show this one): how many of its gifts were charged, that is every gift of the plan whose money moved (succeeded,
 * refunded in part or in full, or disputed), the first gift included; neither a declined try (failed) nor one still
 * under way (pending) counts. One row per charged period, since a period charges at most once (issue #7's unique
 * (plan, period)).
 *
 * Returns a count correlated with the `recurring_plans` row of the query it is selected in, a number, answered from the
 * index of (recurring_plan_id, period, attempt). The first gift names its plan too (period 0: recurring/plans.ts).
 * NOTE: the plan's id is written with its table's name on purpose: Drizzle writes a column of a one-table query without
 * it, and a bare `"id"` inside this subquery meant the donation's own id (the donation page counted 0, issue #36).
 */
export function planChargeCountSql(): SQL<number> {
  return sql<number>`(SELECT count(*) FROM donations charge
    WHERE charge.recurring_plan_id = ${recurringPlans}."id" AND charge.status IN ('succeeded', 'refunded', 'disputed'))`.mapWith(Number);
}
