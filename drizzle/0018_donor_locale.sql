ALTER TABLE "donations" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_locale_check" CHECK ("donations"."locale" IN ('en', 'es'));--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD CONSTRAINT "recurring_plans_locale_check" CHECK ("recurring_plans"."locale" IN ('en', 'es'));