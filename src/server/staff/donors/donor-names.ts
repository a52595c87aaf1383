import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { donations } from '../../db/schema';
import { chargedGiftCondition, donationDonorKeySql } from './figures';
import { selectRows } from './raw-rows';

/**
 * The names and addresses each donor used (issue #22, "Donors": "name(s) used"), read for a few donors at once by their
 * keys through the donor key index (migration 0016_staff_donors).
 */

/** What a donor used on their charged gifts: every name and every address as typed, most recently used first. */
export interface DonorIdentity {
  names: string[];
  emails: string[];
}

/**
 * The {@link DonorIdentity} of each donor of `donorKeys` that has a charged gift, by donor key. Rejects when the
 * database fails.
 */
export async function readDonorIdentities(db: Database, donorKeys: readonly string[]): Promise<Map<string, DonorIdentity>> {
  const identities = new Map<string, DonorIdentity>();
  if (donorKeys.length === 0) return identities;
  const rows = await selectRows<{ donor_key: string; donor_name: string; donor_email: string }>(db, sql`
    SELECT ${donationDonorKeySql} AS donor_key, ${donations.donorName} AS donor_name, ${donations.donorEmail} AS donor_email, max(${donations.createdAt}) AS last_used
    FROM ${donations}
    WHERE ${donationDonorKeySql} IN (${sql.join(donorKeys.map((key) => sql`${key}`), sql`, `)}) AND ${chargedGiftCondition}
    GROUP BY 1, 2, 3
    ORDER BY last_used DESC`);
  for (const row of rows) {
    const identity = identities.get(row.donor_key) ?? { names: [], emails: [] };
    if (!identity.names.includes(row.donor_name)) identity.names.push(row.donor_name);
    if (!identity.emails.includes(row.donor_email)) identity.emails.push(row.donor_email);
    identities.set(row.donor_key, identity);
  }
  return identities;
}
