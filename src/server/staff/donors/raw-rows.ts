import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';

/**
 * Runs raw `query` (the donors' aggregates, which Drizzle's builder cannot express as one statement) and resolves with
 * its rows typed `Row` (the caller's claim of the SELECT's columns). Rejects when the database fails, or the driver
 * answers without a rows array.
 */
export async function selectRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const rows = ((await db.execute(query)) as { rows?: unknown }).rows;
  if (!Array.isArray(rows)) throw new Error('The database driver returned no rows array');
  return rows as Row[];
}
