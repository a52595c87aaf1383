import { and, count, eq, gte, inArray, isNotNull, lte, min } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/client';
import { DONATION_STATUSES, donations, MAIL_STATUSES, mailOutbox, RECURRING_PLAN_STATUSES, recurringPlans } from '../db/schema';
import type { Clock } from '../platform/clock';

/**
 * The metrics read from the database when Prometheus scrapes (issue #14: donations by outcome and gateway, the
 * outbox's backlog and the age of its oldest message, renewals due and failed). NOTE: read at scrape time from the
 * one database, so every API process answers the same values (docs/decisions/0051-metrics.md): aggregate them
 * across instances with `max`, not `sum`. Every label value the schema allows is answered, 0 when there is no row,
 * so a series never disappears.
 */

/** Plan statuses whose renewals the billing runner charges (as claimDuePlans selects them). */
const BILLED_PLAN_STATUSES = ['active', 'past_due'] as const;

/** What the database gauges read: the database, the runners' clock ("now" of due renewals and ages) and the gateway's name. */
export interface DatabaseGaugeOptions {
  db: Database;
  clock: Clock;
  /** The app's gateway (`test`, `stripe`): its donations are answered even when there are none yet. */
  gatewayName: string;
}

/**
 * Registers on `registry`, each collected by one query at scrape time:
 * - `donation_site_donations{outcome,gateway}`: donations by status (`pending`, `succeeded`, `failed`, `refunded`,
 *   `disputed`) and gateway, renewals included;
 * - `donation_site_mail_outbox_messages{status}`: outbox messages by status (`pending` is the backlog);
 * - `donation_site_mail_outbox_oldest_pending_age_seconds`: age of the oldest pending message (0 when none);
 * - `donation_site_renewals_due`: active or past-due recurring plans whose next try is due now (clock);
 * - `donation_site_renewals_failed`: renewal tries (period 1 and later) that failed, since the start;
 * - `donation_site_recurring_plans{status}`: recurring plans by status (`past_due` ones are being retried).
 * A failed query fails the scrape (the route answers 500).
 */
export function registerDatabaseGauges(registry: Registry, { db, clock, gatewayName }: DatabaseGaugeOptions): void {
  const registers = [registry];
  new Gauge({
    name: 'donation_site_donations',
    help: 'Donations in the database by outcome (status) and gateway.',
    labelNames: ['outcome', 'gateway'] as const,
    registers,
    async collect() {
      const rows = await db
        .select({ outcome: donations.status, gateway: donations.gateway, n: count() })
        .from(donations)
        .groupBy(donations.status, donations.gateway);
      this.reset();
      for (const outcome of DONATION_STATUSES) this.set({ outcome, gateway: gatewayName }, 0);
      for (const row of rows) this.set({ outcome: row.outcome, gateway: row.gateway }, row.n);
    },
  });
  new Gauge({
    name: 'donation_site_mail_outbox_messages',
    help: 'Messages of the mail outbox by status; pending ones are the backlog.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const rows = await db.select({ status: mailOutbox.status, n: count() }).from(mailOutbox).groupBy(mailOutbox.status);
      for (const status of MAIL_STATUSES) this.set({ status }, rows.find((row) => row.status === status)?.n ?? 0);
    },
  });
  new Gauge({
    name: 'donation_site_mail_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest pending message of the mail outbox, in seconds; 0 when none is pending.',
    registers,
    async collect() {
      const [row] = await db.select({ oldest: min(mailOutbox.createdAt) }).from(mailOutbox).where(eq(mailOutbox.status, 'pending'));
      const oldest = row?.oldest;
      this.set(oldest ? Math.max(0, (clock.now().getTime() - oldest.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'donation_site_renewals_due',
    help: 'Recurring plans (active or past due) whose next renewal try is due now.',
    registers,
    async collect() {
      const [row] = await db
        .select({ n: count() })
        .from(recurringPlans)
        .where(and(inArray(recurringPlans.status, [...BILLED_PLAN_STATUSES]), lte(recurringPlans.nextAttemptAt, clock.now())));
      this.set(row?.n ?? 0);
    },
  });
  new Gauge({
    name: 'donation_site_renewals_failed',
    help: 'Renewal tries (charges of a recurring plan after its first gift) that failed, since the start.',
    registers,
    async collect() {
      const [row] = await db
        .select({ n: count() })
        .from(donations)
        .where(and(isNotNull(donations.recurringPlanId), gte(donations.recurringPeriod, 1), eq(donations.status, 'failed')));
      this.set(row?.n ?? 0);
    },
  });
  new Gauge({
    name: 'donation_site_recurring_plans',
    help: 'Recurring plans by status.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const rows = await db.select({ status: recurringPlans.status, n: count() }).from(recurringPlans).groupBy(recurringPlans.status);
      for (const status of RECURRING_PLAN_STATUSES) this.set({ status }, rows.find((row) => row.status === status)?.n ?? 0);
    },
  });
}
