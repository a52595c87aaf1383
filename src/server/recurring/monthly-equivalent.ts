import { sql } from 'drizzle-orm';
import { recurringPlans } from '../db/schema';

/**
 * What the `active` plans of an aggregate bring a month, in integer cents (issue #22: "active plans and their monthly
 * equivalent (yearly plans count a twelfth)"; decision 0068): the monthly amounts plus the yearly amounts' sum divided
 * by 12, rounded half up once on the sum. An aggregate over `recurring_plans`, for the staff plans list's totals and
 * the dashboard alike. NOTE: SUM of integers is numeric in PostgreSQL; below 2^53 cents Number() is exact.
 */
export const activeMonthlyEquivalentCentsSql = sql<number>`coalesce(sum(${recurringPlans.amountCents}) FILTER (WHERE ${recurringPlans.status} = 'active' AND ${recurringPlans.frequency} = 'monthly'), 0)
    + round(coalesce(sum(${recurringPlans.amountCents}) FILTER (WHERE ${recurringPlans.status} = 'active' AND ${recurringPlans.frequency} = 'yearly'), 0) / 12.0)`.mapWith(Number);
