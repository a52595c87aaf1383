import type { Database } from '../../db/client';
import { campaigns } from '../../db/schema';

/**
 * Writes a campaign `slug` straight into the database, for tests: published, with English and Spanish texts and a
 * $1,000 goal (100,000 cents), unless `values` says otherwise (any column of the campaigns table).
 */
export async function insertCampaign(db: Database, slug: string, values: Partial<typeof campaigns.$inferInsert> = {}): Promise<void> {
  await db.insert(campaigns).values({
    slug,
    texts: { en: { title: 'Spring appeal', description: 'Nurseries for elkhorn coral.' }, es: { title: 'Campaña de primavera', description: 'Viveros de coral cuerno de alce.' } },
    goalCents: 100_000,
    published: true,
    ...values,
  });
}
