CREATE INDEX "mail_outbox_statement_recipient_idx" ON "mail_outbox" USING btree (lower("recipient")) WHERE "mail_outbox"."kind" = 'year_end_statement';--> statement-breakpoint
-- hand-written: a donor's key (issue #22; staff-donors/donor-key.ts): the hex SHA-256 of the address trimmed and
-- lower-cased. convert_to is only STABLE (encoding conversions live in the catalog), so the expression cannot be
-- indexed as it is; converting text to UTF-8 in a UTF-8 database never depends on the catalog, so this wrapper is
-- declared IMMUTABLE and a donor's page finds the donor's gifts from the index below instead of hashing every row.
CREATE FUNCTION donor_key(address text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN encode(sha256(convert_to(lower(btrim(address)), 'UTF8')), 'hex');
--> statement-breakpoint
CREATE INDEX "donations_donor_key_idx" ON "donations" USING btree (donor_key("donor_email"));
