ALTER TABLE "donation_refunds" ALTER COLUMN "gateway_refund_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "donation_refunds" ADD COLUMN "status" text DEFAULT 'succeeded' NOT NULL;--> statement-breakpoint
ALTER TABLE "donation_refunds" ADD COLUMN "gateway_idempotency_key" text;--> statement-breakpoint
ALTER TABLE "donation_refunds" ADD COLUMN "failure_code" text;--> statement-breakpoint
ALTER TABLE "donation_refunds" ADD COLUMN "failure_message" text;--> statement-breakpoint
ALTER TABLE "donation_refunds" ADD COLUMN "audit_entry" jsonb;--> statement-breakpoint
ALTER TABLE "donation_refunds" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
-- NOTE: every refund recorded before issue #32 was recorded once the gateway had made it: settled when written.
UPDATE "donation_refunds" SET "settled_at" = "created_at";--> statement-breakpoint
CREATE INDEX "donation_refunds_pending_idx" ON "donation_refunds" USING btree ("created_at") WHERE "donation_refunds"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "donation_refunds" ADD CONSTRAINT "donation_refunds_gateway_idempotency_key_unique" UNIQUE("gateway_idempotency_key");--> statement-breakpoint
ALTER TABLE "donation_refunds" ADD CONSTRAINT "donation_refunds_status_check" CHECK ("donation_refunds"."status" IN ('pending', 'succeeded', 'failed'));--> statement-breakpoint
ALTER TABLE "donation_refunds" ADD CONSTRAINT "donation_refunds_settlement_check" CHECK (("donation_refunds"."status" = 'pending') = ("donation_refunds"."settled_at" IS NULL) AND ("donation_refunds"."status" <> 'succeeded' OR "donation_refunds"."gateway_refund_id" IS NOT NULL) AND ("donation_refunds"."status" <> 'failed' OR "donation_refunds"."failure_code" IS NOT NULL));