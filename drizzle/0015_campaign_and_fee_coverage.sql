ALTER TABLE "donations" ADD COLUMN "campaign" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "fee_covered_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "fee_covered_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_fee_covered_cents_check" CHECK ("donations"."fee_covered_cents" >= 0 AND "donations"."fee_covered_cents" < "donations"."amount_cents");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_campaign_check" CHECK ("donations"."campaign" ~ '^[a-z0-9-]{1,64}$');--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD CONSTRAINT "recurring_plans_fee_covered_cents_check" CHECK ("recurring_plans"."fee_covered_cents" >= 0);