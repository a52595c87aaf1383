-- hand-written (issue #39; decision 0116, amending decision 0072): a gift that starts to count adds to its donor's
-- row instead of recomputing it. Until now each statement that charged a gift recomputed its donor's row from every
-- gift of the address (donor_totals_refresh, migration 0016): O(gifts of that donor) per gift, quadratic for a donor
-- who gives often. Both functions are replaced, then every donor's row recomputed once; the triggers, the DELETE
-- trigger's function and the table are unchanged.
--
-- 1. donor_totals_lock(addresses): the donors' rows, each made when missing and all locked FOR UPDATE in address order,
-- for the two functions below. A missing row is inserted as a donor of no gift yet (0 gifts, 0 cents, first gift at
-- +infinity and last at -infinity, so that least() and greatest() of an increment give the gift's own dates; a
-- recompute overwrites or deletes it), ON CONFLICT DO NOTHING on every unique index: two transactions making the row of
-- one new donor at once, the second waits for the first and takes its row (with an arbiter of `address` only, the
-- donor_key index, not an arbiter, could fail the second with a unique violation). Then it loops until it holds a row
-- for every address: a row another transaction locked and then deleted (the donor's last gift moved away or deleted)
-- is skipped by a waiting FOR UPDATE under READ COMMITTED; migration 0016's function left that donor without a row
-- (its next recompute healed it; an increment would not).
CREATE FUNCTION donor_totals_lock(addresses text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  wanted text[] := ARRAY(SELECT DISTINCT a FROM unnest(addresses) AS a ORDER BY a);
  locked integer;
BEGIN
  LOOP
    INSERT INTO donor_totals (address, donor_key, first_gift_at, last_gift_at, gift_count, lifetime_cents)
      SELECT a, donor_key(a), 'infinity', '-infinity', 0, 0 FROM unnest(wanted) AS a
        WHERE NOT EXISTS (SELECT 1 FROM donor_totals t WHERE t.address = a)
        ORDER BY a
      ON CONFLICT DO NOTHING;
    SELECT count(*) INTO locked FROM (SELECT 1 FROM donor_totals WHERE address = ANY (wanted) ORDER BY address FOR UPDATE) AS l;
    EXIT WHEN locked = cardinality(wanted);
  END LOOP;
END;
$$;
--> statement-breakpoint
-- 2. donor_totals_refresh as migration 0016 wrote it, its rows made and locked by donor_totals_lock.
CREATE OR REPLACE FUNCTION donor_totals_refresh(addresses text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(addresses), 0) = 0 THEN
    RETURN;
  END IF;
  PERFORM donor_totals_lock(addresses);
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
-- 3. After each UPDATE of gifts: when every change of the statement that concerns donor_totals is an ADD (a gift whose
-- old status counted for nothing and whose new status is succeeded, refunded or disputed), the statement's added gifts
-- are summed per address and added to each donor's row: gift_count + n, lifetime_cents + the kept amount of the added
-- gifts still succeeded (amount_cents - refunded_cents, ledger/kept-amount.ts; a refunded or disputed gift counts in
-- gift_count and adds 0), first_gift_at the least and last_gift_at the greatest of created_at. The old row counted for
-- nothing, so an add needs nothing of it (its address, amount or date may change in the same statement). Any other
-- change (a refund, a dispute, a corrected address, a moved date), alone or in a statement that also adds, recomputes
-- as before, and so does a DELETE.
-- The rows are made and locked by donor_totals_lock (in address order, as the recompute locks them), then added to.
-- Not an upsert (INSERT ... ON CONFLICT (address) DO UPDATE) for every donor: on a row other transactions update at
-- the same time, its conflict check can miss the row's newest version and try a speculative insertion, which the
-- donor_key unique index (not its arbiter) then fails with a unique violation, or a deadlock on the speculative token
-- (40 concurrent successes of one donor did). Exact under READ COMMITTED: a recompute that locked the row first cannot
-- see the adding transaction's gift (that transaction commits only after its update, which waits for the lock), so
-- the increment lands on figures without it; a recompute that locks the row after the increment waits for that
-- transaction's commit, then reads its gift in the next statement's snapshot and overwrites the row with absolute
-- figures; increments commute. Decision 0116 says it in full.
CREATE OR REPLACE FUNCTION donations_donor_totals_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  addresses text[];
  firsts timestamptz[];
  lasts timestamptz[];
  counts integer[];
  sums bigint[];
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE o.status IN ('succeeded', 'refunded', 'disputed')
        AND (o.status, o.amount_cents, o.refunded_cents, o.donor_email, o.created_at)
            IS DISTINCT FROM (n.status, n.amount_cents, n.refunded_cents, n.donor_email, n.created_at)
  ) THEN
    -- No gift that counted changed what it counts for: every change of the statement that concerns donor_totals adds a
    -- gift (possibly none: a pending to failed attempt, or a change of other columns, adds nothing).
    SELECT coalesce(array_agg(address ORDER BY address), '{}'), array_agg(first_gift_at ORDER BY address),
           array_agg(last_gift_at ORDER BY address), array_agg(gift_count ORDER BY address), array_agg(lifetime_cents ORDER BY address)
      INTO addresses, firsts, lasts, counts, sums
      FROM (SELECT lower(btrim(n.donor_email)) AS address, min(n.created_at) AS first_gift_at, max(n.created_at) AS last_gift_at,
                   count(*)::integer AS gift_count,
                   coalesce(sum(n.amount_cents - n.refunded_cents) FILTER (WHERE n.status = 'succeeded'), 0)::bigint AS lifetime_cents
              FROM old_rows o JOIN new_rows n ON n.id = o.id
              WHERE o.status NOT IN ('succeeded', 'refunded', 'disputed') AND n.status IN ('succeeded', 'refunded', 'disputed')
              GROUP BY 1) AS added;
    IF cardinality(addresses) = 0 THEN
      RETURN NULL;
    END IF;
    -- The donors' rows made and locked (FOR UPDATE waits for a holder's commit and locks the latest version), then
    -- added to; the next statement's snapshot holds every version committed before the locks were granted.
    PERFORM donor_totals_lock(addresses);
    UPDATE donor_totals t SET
        first_gift_at = least(t.first_gift_at, a.first_gift_at),
        last_gift_at = greatest(t.last_gift_at, a.last_gift_at),
        gift_count = t.gift_count + a.gift_count,
        lifetime_cents = t.lifetime_cents + a.lifetime_cents
      FROM unnest(addresses, firsts, lasts, counts, sums) AS a(address, first_gift_at, last_gift_at, gift_count, lifetime_cents)
      WHERE t.address = a.address;
    RETURN NULL;
  END IF;
  -- Otherwise the recompute of migration 0016: the donors a changed gift counted for and counts for now.
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
-- 4. Every donor recomputed once, so that the increments start from exact rows: a row the gap of (1) lost was healed
-- by the donor's next recompute until now, and would not be by an increment.
SELECT donor_totals_refresh(ARRAY(
  SELECT address FROM donor_totals
  UNION
  SELECT lower(btrim(donor_email)) FROM donations WHERE status IN ('succeeded', 'refunded', 'disputed')));
