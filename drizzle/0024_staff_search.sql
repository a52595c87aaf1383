-- hand-written (issue #36, part 2 "Search finds what staff type"; decision 0111): the staff's search finds any part of
-- a name, e-mail or receipt number, ignoring case and accents, tolerating a typo, from PostgreSQL's own modules
-- `unaccent` and `pg_trgm` (both shipped with the embedded server and with PostgreSQL 15, and "trusted" since
-- PostgreSQL 13: a database owner may create them without being a superuser).
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- hand-written: the text the search compares, lower case and without accents. unaccent() is only STABLE (its
-- dictionary could be changed or found elsewhere by search_path), so it cannot be indexed as it is. This wrapper names
-- the dictionary itself (`'unaccent'::regdictionary`, resolved to its id when the function is created, as is the
-- two-argument unaccent, by the SQL-standard body) and is declared IMMUTABLE: the standard way to index unaccented text
-- (PostgreSQL's unaccent documentation; the wrapper of the same shape on the PostgreSQL wiki and mailing lists). Staff
-- never change the rules file; if they did, the index is rebuilt with REINDEX.
CREATE FUNCTION staff_search_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN lower(unaccent('unaccent'::regdictionary, value));
--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
CREATE INDEX "donations_donor_trigram_idx" ON "donations" USING gin (staff_search_text("donor_name" || ' ' || "donor_email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "receipts_number_trigram_idx" ON "receipts" USING gin ("number" gin_trgm_ops);--> statement-breakpoint
-- The prefix index of issue #21 is replaced by the trigram index above (it answered only word starts).
DROP INDEX "donations_donor_search_idx";