CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"gateway" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "donations" DROP CONSTRAINT "donations_status_check";--> statement-breakpoint
ALTER TABLE "donations" ALTER COLUMN "card_brand" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ALTER COLUMN "card_last4" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "dispute_status" text;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_payment_intent_id_unique" UNIQUE("payment_intent_id");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_card_known_check" CHECK ("donations"."status" <> 'succeeded' OR ("donations"."card_brand" IS NOT NULL AND "donations"."card_last4" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_status_check" CHECK ("donations"."status" IN ('pending', 'succeeded', 'failed', 'refunded', 'disputed'));--> statement-breakpoint
-- Issue #11: the donation life cycle with payment intents, refunds and disputes, still enforced by the database
-- (replacing migration 0002's function: pending -> succeeded | failed only). Allowed moves:
--   pending   -> succeeded | failed | refunded | disputed   (a refund or dispute event may arrive before the success)
--   failed    -> succeeded                                  (a payment intent declined once, then paid with another card)
--   succeeded -> refunded | disputed
--   disputed  -> succeeded | refunded                       (a dispute won; a refund after a dispute)
-- Everything else (back to pending, succeeded -> failed, out of refunded) is refused, whoever issues it.
CREATE OR REPLACE FUNCTION "donations_guard_status_transition"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."status" IS DISTINCT FROM OLD."status" AND NOT (
		(OLD."status" = 'pending' AND NEW."status" IN ('succeeded', 'failed', 'refunded', 'disputed'))
		OR (OLD."status" = 'failed' AND NEW."status" = 'succeeded')
		OR (OLD."status" = 'succeeded' AND NEW."status" IN ('refunded', 'disputed'))
		OR (OLD."status" = 'disputed' AND NEW."status" IN ('succeeded', 'refunded'))
	) THEN
		RAISE EXCEPTION 'donation % is %: it cannot become %', OLD."id", OLD."status", NEW."status"
			USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END;
$$;
