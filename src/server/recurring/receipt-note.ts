import { eq } from 'drizzle-orm';
import type { CapabilitySigner } from '../platform/capability-link';
import type { Database } from '../db/client';
import { donations, recurringPlans } from '../db/schema';
import type { Clock } from '../platform/clock';
import type { RecurringReceiptNoteOf } from '../receipts/receipt-view';
import { startOfDay } from './calendar';
import { manageUrl } from './manage-link';

/**
 * What the receipt of a plan's gift says of the plan (issue #13: "Each renewal ... with its own receipt, which says it
 * is recurring and when the next charge is"; every receipt of a plan carries the manage link): the plan's next charge
 * as it stands when the receipt is sent (none while paused or cancelled), and a freshly signed manage link.
 */
export function createRecurringReceiptNotes(deps: { db: Database; links: CapabilitySigner; publicUrl: string; clock: Clock }): RecurringReceiptNoteOf {
  return async (donationId) => {
    const [row] = await deps.db
      .select({ plan: recurringPlans })
      .from(donations)
      .innerJoin(recurringPlans, eq(recurringPlans.id, donations.recurringPlanId))
      .where(eq(donations.id, donationId));
    if (!row) return undefined;
    const { plan } = row;
    const nextChargeOn = plan.status === 'active' ? startOfDay(plan.nextChargeOn) : plan.status === 'past_due' ? plan.nextAttemptAt : null;
    return { nextChargeOn, manageUrl: manageUrl(deps.links, deps.publicUrl, plan.id, deps.clock.now(), plan.locale) };
  };
}
