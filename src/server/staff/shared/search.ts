import { eq, or, sql, type SQL } from 'drizzle-orm';
import { RECEIPT_NUMBER_PATTERN } from '../../../shared/staff/donations-api';
import { donations, donorSearchDocumentSql, receipts } from '../../db/schema';

/**
 * The list's one search box, `q` (issue #21, "Donations"): an exact receipt number (`2026-000123`) finds its gift;
 * anything else finds the donors whose name or e-mail has a word starting with each word typed (case-insensitive:
 * `mar gar` finds `María García` and `mgarcia@mar.example`), and the gift whose charge id (`ch_...`) or payment intent
 * id (`pi_...`) is exactly the text. Each form is answered from an index (migration of issue #21): the receipts' primary
 * key, the donors' full-text index (donorSearchDocumentSql, PostgreSQL's `simple` configuration with prefix matching),
 * and the unique indexes of the two gateway ids.
 */

/**
 * The words of a search as a PostgreSQL `tsquery` of prefixes (`mar:* & gar:*`), or undefined when it has none. Words are
 * runs of letters and digits (any script); everything else separates them, as `@ . + _ -` do in the indexed document,
 * so no character of the text can reach the tsquery's own syntax.
 */
export function prefixTsQuery(text: string): string | undefined {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return words ? words.map((word) => `${word}:*`).join(' & ') : undefined;
}

/** The condition `q` puts on the donations table, or undefined for an empty search. */
export function searchCondition(q: string | undefined): SQL | undefined {
  const text = q?.trim();
  if (!text) return undefined;
  if (RECEIPT_NUMBER_PATTERN.test(text)) return sql`${donations.id} IN (SELECT ${receipts.donationId} FROM ${receipts} WHERE ${receipts.number} = ${text})`;
  const tsQuery = prefixTsQuery(text);
  return or(
    tsQuery ? sql`${donorSearchDocumentSql(donations.donorName, donations.donorEmail)} @@ to_tsquery('simple'::regconfig, ${tsQuery})` : undefined,
    eq(donations.gatewayTransactionId, text),
    eq(donations.paymentIntentId, text),
  );
}
