-- Issue #3: a donation is written `pending` before the gateway is called, and only then moves to `succeeded`
-- or `failed`. Migration 0002 guards the moves (UPDATE OF status) but not the first write, so a row could be
-- INSERTed as succeeded or failed, skipping pending; this refuses that, whoever issues it. Every insert of the
-- server writes `pending` (repository.ts, pendingRow). A custom migration: drizzle-kit cannot express triggers.
-- Plain PL/pgSQL available on PostgreSQL 15 and PGlite.
CREATE FUNCTION "donations_guard_status_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."status" IS DISTINCT FROM 'pending' THEN
		RAISE EXCEPTION 'donation % cannot be written %: a new donation is pending', NEW."id", NEW."status"
			USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "donations_status_on_insert" BEFORE INSERT ON "donations"
	FOR EACH ROW EXECUTE FUNCTION "donations_guard_status_on_insert"();
