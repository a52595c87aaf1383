import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { donations, donorSearchTextSql, receipts } from '../../db/schema';

/**
 * The lists' one search box, `q` (issue #21, "Donations"; issue #36, part 2 "Search finds what staff type"; decision
 * 0111): any part of a donor's name or e-mail, case and accents ignored (`konkwo` finds `Okonkwo`, `Mendez` finds
 * `Méndez`), a typo tolerated (`Margret` finds `Margaret`), any part of a receipt number (`000123` finds
 * `2026-000123`), and the gift whose charge id (`ch_...`) or payment intent id (`pi_...`) is exactly the text; best
 * matches first ({@link StaffSearch.rank}). Built on PostgreSQL's `unaccent` and `pg_trgm` (migration of issue #36):
 * every form is answered from an index (the donors' trigram index of donorSearchTextSql, the receipts' trigram index
 * of their numbers, and the unique indexes of the two gateway ids), so the three lists stay fast at 100,000 gifts
 * (scripts/bench-staff.ts).
 */

/** The most words of a search that count (a longer text is cut there, so one request never builds a huge query). */
export const SEARCH_MAX_WORDS = 8;

/** A receipt number's fragment worth looking for: at least 3 digits or dashes, a digit among them. */
const RECEIPT_FRAGMENT = /^(?=.*[0-9])[0-9-]{3,}$/;

/**
 * A word whose typos are tolerated: 4 letters or more and nothing else (a name: `Margret`). Parts of an address
 * (`example.net`) and numbers are found as typed, so `example.net` never finds `example.com`.
 */
const TYPO_TOLERANT_WORD = /^\p{L}{4,}$/u;

/** `text` with LIKE's own characters (`%`, `_`, backslash) escaped, so it matches only itself. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/** The words of a search: runs of anything but white space, at most {@link SEARCH_MAX_WORDS}. */
export function searchWords(text: string): string[] {
  return text.split(/\s+/u).filter((word) => word !== '').slice(0, SEARCH_MAX_WORDS);
}

/** What a search puts on the donations table: which gifts it finds, and how well each matches. */
export interface StaffSearch {
  /** The condition on the donations table. */
  condition: SQL;
  /**
   * How well a gift matches (higher is better; a number, not a percentage): 100 for a receipt number or gateway id
   * found, plus for each word 1 when the donor's name or e-mail contains it and its `strict_word_similarity` (0 to 1:
   * 1 for a whole word, less for a part of a longer word or a word with a typo).
   */
  rank: SQL<number>;
}

/**
 * The search `q` asks for, or undefined for an empty one. Each word must be found in the donor's name or e-mail
 * (donorSearchTextSql: lower case, no accents), as a part of it (`LIKE '%word%'`) or, for a word of letters
 * ({@link TYPO_TOLERANT_WORD}), as a word close to one of it (`word <<% text`: pg_trgm's strict word similarity, whole
 * words against whole words, at least `pg_trgm.strict_word_similarity_threshold`, 0.5 by default: `margret` finds
 * `margaret`, 0.55); or the whole text is part of a receipt number, or exactly a charge or payment intent id.
 */
export function staffSearch(q: string | undefined): StaffSearch | undefined {
  const text = q?.trim();
  if (!text) return undefined;
  const document = donorSearchTextSql(donations.donorName, donations.donorEmail);
  const words = searchWords(text);
  const contains = (word: string) => sql`${document} LIKE '%' || staff_search_text(${escapeLike(word)}) || '%'`;
  const wordConditions = words.map((word) => (TYPO_TOLERANT_WORD.test(word) ? sql`(${contains(word)} OR staff_search_text(${word}) <<% ${document})` : contains(word)));
  const wordRanks = words.map((word) => sql`(CASE WHEN ${contains(word)} THEN 1 ELSE 0 END + strict_word_similarity(staff_search_text(${word}), ${document}))`);
  // NOTE: `= ANY(ARRAY(subquery))` is run once before the scan (an InitPlan) and compared on the primary key, so the
  // planner can still OR it with the other indexed forms (an `IN (subquery)` inside an OR scans the whole table).
  const byReceipt = RECEIPT_FRAGMENT.test(text)
    ? sql`${donations.id} = ANY(ARRAY(SELECT ${receipts.donationId} FROM ${receipts} WHERE ${receipts.number} LIKE ${`%${escapeLike(text)}%`}))`
    : undefined;
  const byGatewayId = words.length === 1 ? or(eq(donations.gatewayTransactionId, text), eq(donations.paymentIntentId, text)) : undefined;
  const exact = or(byReceipt, byGatewayId);
  const condition = or(and(...wordConditions), exact) as SQL;
  const rank = sql<number>`(${exact ? sql`CASE WHEN ${exact} THEN 100 ELSE 0 END` : sql`0`} + ${sql.join(wordRanks, sql` + `)})`.mapWith(Number);
  return { condition, rank };
}

/** The condition `q` puts on the donations table, or undefined for an empty search ({@link staffSearch}). */
export function searchCondition(q: string | undefined): SQL | undefined {
  return staffSearch(q)?.condition;
}
