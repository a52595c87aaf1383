CREATE TABLE "admin_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"request_id" text NOT NULL,
	"status_code" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "donation_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"donation_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"gateway" text NOT NULL,
	"gateway_refund_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "donation_refunds_gateway_refund_id_unique" UNIQUE("gateway_refund_id"),
	CONSTRAINT "donation_refunds_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "donation_refunds_amount_cents_check" CHECK ("donation_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A gift refunded before this migration (a refund made in Stripe's Dashboard, recorded from its event) was refunded in full.
UPDATE "donations" SET "refunded_cents" = "amount_cents" WHERE "status" = 'refunded';--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "digest_date" date;--> statement-breakpoint
ALTER TABLE "donation_refunds" ADD CONSTRAINT "donation_refunds_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_log_created_at_idx" ON "admin_audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "donation_refunds_donation_id_idx" ON "donation_refunds" USING btree ("donation_id");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_refund_id_donation_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."donation_refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_refunded_cents_check" CHECK ("donations"."refunded_cents" BETWEEN 0 AND "donations"."amount_cents");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_operations_check" CHECK (("mail_outbox"."kind" <> 'partial_refund' OR "mail_outbox"."refund_id" IS NOT NULL) AND ("mail_outbox"."kind" <> 'staff_digest' OR "mail_outbox"."digest_date" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" IN ('receipt', 'receipt_void', 'receipt_links', 'year_end_statement', 'renewal_failed', 'plan_paused', 'plan_changed', 'manage_links', 'renewal_needs_authentication', 'card_expiring', 'partial_refund', 'staff_digest'));--> statement-breakpoint
-- The audit trail is append-only (issue #14): no UPDATE or DELETE of a recorded admin request, whoever asks.
CREATE OR REPLACE FUNCTION admin_audit_log_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'admin_audit_log is append-only: % refused', TG_OP USING ERRCODE = 'check_violation';
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER admin_audit_log_append_only BEFORE UPDATE OR DELETE ON "admin_audit_log"
  FOR EACH ROW EXECUTE FUNCTION admin_audit_log_append_only();
