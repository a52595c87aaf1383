CREATE TABLE "recurring_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" char(3) DEFAULT 'USD' NOT NULL,
	"frequency" text NOT NULL,
	"cause" text NOT NULL,
	"first_donation_id" uuid NOT NULL,
	"gateway" text NOT NULL,
	"payment_method_id" text NOT NULL,
	"customer_id" text,
	"card_brand" text NOT NULL,
	"card_last4" char(4) NOT NULL,
	"card_expiry_month" integer NOT NULL,
	"card_expiry_year" integer NOT NULL,
	"anchor_date" date NOT NULL,
	"period" integer DEFAULT 1 NOT NULL,
	"next_charge_on" date NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"retry_count" integer DEFAULT 0 NOT NULL,
	"past_due_since" timestamp with time zone,
	"paused_until" date,
	"locked_until" timestamp with time zone,
	"is_test_payment" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recurring_plans_first_donation_id_unique" UNIQUE("first_donation_id"),
	CONSTRAINT "recurring_plans_status_check" CHECK ("recurring_plans"."status" IN ('active', 'past_due', 'paused', 'cancelled')),
	CONSTRAINT "recurring_plans_amount_cents_check" CHECK ("recurring_plans"."amount_cents" > 0),
	CONSTRAINT "recurring_plans_frequency_check" CHECK ("recurring_plans"."frequency" IN ('monthly', 'yearly')),
	CONSTRAINT "recurring_plans_cause_check" CHECK ("recurring_plans"."cause" IN ('marine-protected-areas', 'research-science', 'education-outreach', 'sustainable-development', 'communications-marketing')),
	CONSTRAINT "recurring_plans_card_brand_check" CHECK ("recurring_plans"."card_brand" IN ('visa', 'mastercard', 'amex', 'discover', 'unknown')),
	CONSTRAINT "recurring_plans_card_last4_check" CHECK ("recurring_plans"."card_last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "recurring_plans_card_expiry_check" CHECK ("recurring_plans"."card_expiry_month" BETWEEN 1 AND 12 AND "recurring_plans"."card_expiry_year" BETWEEN 2000 AND 2200),
	CONSTRAINT "recurring_plans_period_check" CHECK ("recurring_plans"."period" >= 1 AND "recurring_plans"."retry_count" >= 0),
	CONSTRAINT "recurring_plans_past_due_check" CHECK (("recurring_plans"."status" = 'past_due') = ("recurring_plans"."past_due_since" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "recurring_plan_id" uuid;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "recurring_period" integer;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "recurring_attempt" integer;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "recurring_plan_id" uuid;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD CONSTRAINT "recurring_plans_first_donation_id_donations_id_fk" FOREIGN KEY ("first_donation_id") REFERENCES "public"."donations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recurring_plans_due_idx" ON "recurring_plans" USING btree ("status","next_attempt_at");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_recurring_plan_id_recurring_plans_id_fk" FOREIGN KEY ("recurring_plan_id") REFERENCES "public"."recurring_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_recurring_plan_id_recurring_plans_id_fk" FOREIGN KEY ("recurring_plan_id") REFERENCES "public"."recurring_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "donations_recurring_period_charged_unique" ON "donations" USING btree ("recurring_plan_id","recurring_period") WHERE "donations"."status" <> 'failed';--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_recurring_attempt_unique" UNIQUE("recurring_plan_id","recurring_period","recurring_attempt");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_recurring_check" CHECK (("donations"."recurring_plan_id" IS NULL) = ("donations"."recurring_period" IS NULL) AND ("donations"."recurring_plan_id" IS NULL) = ("donations"."recurring_attempt" IS NULL) AND coalesce("donations"."recurring_period" >= 0 AND "donations"."recurring_attempt" >= 1, true));--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_recurring_plan_check" CHECK ("mail_outbox"."kind" NOT IN ('renewal_failed', 'plan_paused', 'plan_changed', 'renewal_needs_authentication') OR "mail_outbox"."recurring_plan_id" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" IN ('receipt', 'receipt_void', 'receipt_links', 'year_end_statement', 'renewal_failed', 'plan_paused', 'plan_changed', 'manage_links', 'renewal_needs_authentication'));--> statement-breakpoint
-- Issue #13: the life cycle of a recurring plan, enforced by the database as the donation statuses are (migrations
-- 0003 and 0005; drizzle-kit cannot express triggers). A plan is written `active`. Allowed moves:
--   active   -> past_due | paused | cancelled   (a renewal declined; the donor pauses or cancels)
--   past_due -> active | paused | cancelled     (a retry went through; the last retry failed, or the donor paused; cancelled)
--   paused   -> active | cancelled              (resumed by the donor or at the end of a pause until a date; cancelled)
-- Nothing leaves `cancelled`: a cancelled plan is never charged again. Plain PL/pgSQL for PostgreSQL 15 and PGlite.
CREATE FUNCTION "recurring_plans_guard_status"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		IF NEW."status" IS DISTINCT FROM 'active' THEN
			RAISE EXCEPTION 'recurring plan % cannot be written %: a new plan is active', NEW."id", NEW."status"
				USING ERRCODE = 'check_violation';
		END IF;
	ELSIF NEW."status" IS DISTINCT FROM OLD."status" AND NOT (
		(OLD."status" = 'active' AND NEW."status" IN ('past_due', 'paused', 'cancelled'))
		OR (OLD."status" = 'past_due' AND NEW."status" IN ('active', 'paused', 'cancelled'))
		OR (OLD."status" = 'paused' AND NEW."status" IN ('active', 'cancelled'))
	) THEN
		RAISE EXCEPTION 'recurring plan % is %: it cannot become %', OLD."id", OLD."status", NEW."status"
			USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "recurring_plans_status_on_insert" BEFORE INSERT ON "recurring_plans"
	FOR EACH ROW EXECUTE FUNCTION "recurring_plans_guard_status"();
--> statement-breakpoint
CREATE TRIGGER "recurring_plans_status_transition" BEFORE UPDATE OF "status" ON "recurring_plans"
	FOR EACH ROW EXECUTE FUNCTION "recurring_plans_guard_status"();
