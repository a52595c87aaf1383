-- Issue #3: the donation life cycle, enforced by the database itself (a custom migration: drizzle-kit
-- cannot express triggers). A donation is written `pending` and moves once, to `succeeded` or `failed`;
-- any other status change (say, succeeded -> failed, or back to pending) is refused, whoever issues it.
-- Plain PL/pgSQL available on PostgreSQL 15 and PGlite.
CREATE FUNCTION "donations_guard_status_transition"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."status" IS DISTINCT FROM OLD."status" AND OLD."status" <> 'pending' THEN
		RAISE EXCEPTION 'donation % is %: it cannot become %', OLD."id", OLD."status", NEW."status"
			USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "donations_status_transition" BEFORE UPDATE OF "status" ON "donations"
	FOR EACH ROW EXECUTE FUNCTION "donations_guard_status_transition"();
