import { createHash } from 'node:crypto';

/**
 * A donor's key in the staff back office (issue #22, "Donors": one donor per e-mail address, compared
 * case-insensitively): the lowercase hex SHA-256 of the address trimmed and lower-cased. Pages and answers name a
 * donor by it (`/staff/donors/<key>`), so a page's address never holds the e-mail itself. PostgreSQL computes the same
 * value with {@link donorKeySql}.
 */
export function donorKeyOf(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex');
}

/**
 * The SQL expression of {@link donorKeyOf} over a text column or expression `column`: the database function
 * `donor_key(address)` (migration 0016_staff_donors: `encode(sha256(convert_to(lower(btrim(address)), 'UTF8')), 'hex')`,
 * declared IMMUTABLE), which the index `donations_donor_key_idx` holds for `donations.donor_email`.
 */
export function donorKeySql(column: string): string {
  return `donor_key(${column})`;
}

/** A donor key as it appears in a path: 64 lowercase hex digits. */
export const DONOR_KEY_PATTERN = /^[0-9a-f]{64}$/;
