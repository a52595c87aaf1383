CREATE TABLE "donor_totals" (
	"address" text PRIMARY KEY NOT NULL,
	"donor_key" text NOT NULL,
	"first_gift_at" timestamp with time zone NOT NULL,
	"last_gift_at" timestamp with time zone NOT NULL,
	"gift_count" integer NOT NULL,
	"lifetime_cents" bigint NOT NULL,
	CONSTRAINT "donor_totals_donor_key_unique" UNIQUE("donor_key")
);
--> statement-breakpoint
CREATE INDEX "donor_totals_last_gift_idx" ON "donor_totals" USING btree ("last_gift_at","address");--> statement-breakpoint
CREATE INDEX "donor_totals_first_gift_idx" ON "donor_totals" USING btree ("first_gift_at","address");--> statement-breakpoint
CREATE INDEX "donor_totals_lifetime_idx" ON "donor_totals" USING btree ("lifetime_cents","address");--> statement-breakpoint
CREATE INDEX "donor_totals_gift_count_idx" ON "donor_totals" USING btree ("gift_count","address");--> statement-breakpoint
CREATE INDEX "mail_outbox_statement_recipient_idx" ON "mail_outbox" USING btree (lower("recipient")) WHERE "mail_outbox"."kind" = 'year_end_statement';--> statement-breakpoint
-- hand-written: a donor's key (issue #22; staff-donors/donor-key.ts): the hex SHA-256 of the address trimmed and
-- lower-cased. convert_to is only STABLE (encoding conversions live in the catalog), so the expression cannot be
-- indexed as it is; converting text to UTF-8 in a UTF-8 database never depends on the catalog, so this wrapper is
-- declared IMMUTABLE and a donor's gifts are found from the index below instead of hashing every row.
CREATE FUNCTION donor_key(address text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN encode(sha256(convert_to(lower(btrim(address)), 'UTF8')), 'hex');
--> statement-breakpoint
CREATE INDEX "donations_donor_key_idx" ON "donations" USING btree (donor_key("donor_email"));
--> statement-breakpoint
-- hand-written: donor_totals kept by the database (decision 0072). donor_totals_refresh recomputes the rows of a set of
-- donors (addresses trimmed and lower-cased) from their charged gifts, deleting those left without one: the figures of
-- staff-donors/figures.ts, the net being the kept amount (amount_cents - refunded_cents, ledger/kept-amount.ts) of the
-- gifts still succeeded. It first makes sure each donor has a row and locks those rows (in address order), so two
-- transactions changing one donor's gifts recompute one after the other, the second (its next statement takes a new
-- snapshot under READ COMMITTED) seeing the first's committed gift. Row locks, not advisory ones: a bulk change of
-- 100,000 gifts would not fit in the lock table.
CREATE FUNCTION donor_totals_refresh(addresses text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(addresses), 0) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO donor_totals (address, donor_key, first_gift_at, last_gift_at, gift_count, lifetime_cents)
    SELECT a, donor_key(a), now(), now(), 0, 0 FROM unnest(addresses) AS a ORDER BY a
    ON CONFLICT (address) DO NOTHING;
  PERFORM 1 FROM donor_totals WHERE address = ANY (addresses) ORDER BY address FOR UPDATE;
  WITH figures AS (
    SELECT lower(btrim(d.donor_email)) AS address, min(d.created_at) AS first_gift_at, max(d.created_at) AS last_gift_at,
           count(*)::integer AS gift_count,
           coalesce(sum(d.amount_cents - d.refunded_cents) FILTER (WHERE d.status = 'succeeded'), 0)::bigint AS lifetime_cents
      FROM donations d
      WHERE donor_key(d.donor_email) IN (SELECT donor_key(a) FROM unnest(addresses) AS a)
        AND d.status IN ('succeeded', 'refunded', 'disputed')
      GROUP BY 1)
  UPDATE donor_totals t SET first_gift_at = f.first_gift_at, last_gift_at = f.last_gift_at, gift_count = f.gift_count, lifetime_cents = f.lifetime_cents
    FROM figures f WHERE t.address = f.address;
  DELETE FROM donor_totals t
    WHERE t.address = ANY (addresses)
      AND NOT EXISTS (SELECT 1 FROM donations d WHERE donor_key(d.donor_email) = t.donor_key AND d.status IN ('succeeded', 'refunded', 'disputed'));
END;
$$;
--> statement-breakpoint
-- After each statement that changes gifts: the donors a changed gift counted for and counts for now are recomputed, once
-- per statement (a bulk change recomputes each donor once). A change between two states that count for nothing (pending
-- to failed: the donor form's attempts) or of other columns recomputes nothing. No INSERT trigger: a gift is always
-- written pending (migration 0003), which counts for nothing.
CREATE FUNCTION donations_donor_totals_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM donor_totals_refresh(ARRAY(
    SELECT DISTINCT v.address FROM (
      SELECT lower(btrim(o.donor_email)) AS a, lower(btrim(n.donor_email)) AS b
        FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.status IN ('succeeded', 'refunded', 'disputed') OR n.status IN ('succeeded', 'refunded', 'disputed'))
          AND (o.status, o.amount_cents, o.refunded_cents, o.donor_email, o.created_at)
              IS DISTINCT FROM (n.status, n.amount_cents, n.refunded_cents, n.donor_email, n.created_at)
    ) AS changed, LATERAL (VALUES (changed.a), (changed.b)) AS v(address)));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION donations_donor_totals_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM donor_totals_refresh(ARRAY(SELECT DISTINCT lower(btrim(o.donor_email)) FROM old_rows o WHERE o.status IN ('succeeded', 'refunded', 'disputed')));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER donations_donor_totals_update AFTER UPDATE ON donations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION donations_donor_totals_after_update();
--> statement-breakpoint
CREATE TRIGGER donations_donor_totals_delete AFTER DELETE ON donations
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION donations_donor_totals_after_delete();
--> statement-breakpoint
-- The donors of the gifts made before this migration.
INSERT INTO donor_totals (address, donor_key, first_gift_at, last_gift_at, gift_count, lifetime_cents)
  SELECT lower(btrim(donor_email)), donor_key(lower(btrim(donor_email))), min(created_at), max(created_at), count(*)::integer,
         coalesce(sum(amount_cents - refunded_cents) FILTER (WHERE status = 'succeeded'), 0)::bigint
  FROM donations WHERE status IN ('succeeded', 'refunded', 'disputed')
  GROUP BY lower(btrim(donor_email));
