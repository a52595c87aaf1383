import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { donations, type DonationStatus } from '../../db/schema';
import { keptCentsSql } from '../../ledger/kept-amount';

/**
 * `coalesce(sum(expression) FILTER (WHERE condition), 0)` as a number. NOTE: SUM returns numeric (bigint input), which
 * the driver hands back as text; below 2^53 cents Number() is exact (as ledger/stats.ts).
 */
const sumCents = (expression: SQL, condition?: SQL) =>
  sql<number>`coalesce(sum(${expression})${condition ? sql` FILTER (WHERE ${condition})` : sql``}, 0)`.mapWith(Number);

/** The statuses of a gift that was charged (it has a receipt, and a row in the standard export): its gross counts. */
export const CHARGED_STATUSES = ['succeeded', 'refunded', 'disputed'] as const satisfies readonly DonationStatus[];

/**
 * Totals of the filtered set, in cents (StaffDonationTotalsSchema): gross = amounts of the gifts charged (succeeded,
 * refunded, disputed), refunded = refunded_cents, disputed = what was left of disputed gifts, net = the ledger's kept
 * amount of the gifts still succeeded (what ledger/stats.ts counts), so gross - refunded - disputed = net.
 */
export const totalColumns = {
  count: sql<number>`count(*)`.mapWith(Number),
  grossCents: sumCents(sql`${donations.amountCents}`, inArray(donations.status, CHARGED_STATUSES)),
  refundedCents: sumCents(sql`${donations.refundedCents}`),
  disputedCents: sumCents(keptCentsSql, eq(donations.status, 'disputed')),
  netCents: sumCents(keptCentsSql, eq(donations.status, 'succeeded')),
};
