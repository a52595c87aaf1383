import { count, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { staffCredentials } from '../db/schema';

/** The passkeys (credential records) of staff members, in the database (issue #21, "Passkeys"). */

/** How many passkeys `staffId` holds. */
export async function countPasskeys(db: Database, staffId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(staffCredentials).where(eq(staffCredentials.staffId, staffId));
  return row?.n ?? 0;
}
