import { and, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donations, receipts } from '../db/schema';
import type { TributeType } from '../../shared/tribute';

/** Gifts of a day dedicated in honour and in memory of someone (issue #23: "the digest ... show[s] it"). */
export type DedicatedGiftTally = Record<TributeType, number>;

/**
 * The dedicated gifts among a day's gifts, by kind: donations whose receipt was issued in `[day.start, day.end)` and that
 * are still `succeeded` (the digest's own definition of a gift received; decision 0063), with a dedication. Counts only,
 * never a name (the digest names no one). Rejects when the database fails.
 */
export async function countDedicatedGifts(db: Database, day: { start: Date; end: Date }): Promise<DedicatedGiftTally> {
  const rows = await db
    .select({ type: donations.tributeType, count: sql<number>`count(*)`.mapWith(Number) })
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .where(and(gte(receipts.issuedAt, day.start), lt(receipts.issuedAt, day.end), eq(donations.status, 'succeeded'), isNotNull(donations.tributeType)))
    .groupBy(donations.tributeType);
  const tally: DedicatedGiftTally = { honor: 0, memory: 0 };
  for (const row of rows) if (row.type) tally[row.type] = row.count;
  return tally;
}
