CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"texts" jsonb NOT NULL,
	"goal_cents" bigint,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"preset_amount_cents" integer,
	"preset_frequency" text,
	"preset_cause" text,
	"show_supporters" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_slug_unique" UNIQUE("slug"),
	CONSTRAINT "campaigns_slug_check" CHECK ("campaigns"."slug" ~ '^[a-z0-9-]{1,64}$'),
	CONSTRAINT "campaigns_texts_check" CHECK (jsonb_typeof("campaigns"."texts" -> 'en' -> 'title') = 'string'),
	CONSTRAINT "campaigns_goal_cents_check" CHECK ("campaigns"."goal_cents" > 0),
	CONSTRAINT "campaigns_dates_check" CHECK ("campaigns"."ends_at" > "campaigns"."starts_at"),
	CONSTRAINT "campaigns_preset_amount_cents_check" CHECK ("campaigns"."preset_amount_cents" > 0),
	CONSTRAINT "campaigns_preset_frequency_check" CHECK ("campaigns"."preset_frequency" IN ('one-time', 'monthly', 'yearly')),
	CONSTRAINT "campaigns_preset_cause_check" CHECK ("campaigns"."preset_cause" IN ('marine-protected-areas', 'research-science', 'education-outreach', 'sustainable-development', 'communications-marketing'))
);
--> statement-breakpoint
CREATE TABLE "one_time_upgrades" (
	"name" text PRIMARY KEY NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "donations_campaign_figures_idx" ON "donations" USING btree ("campaign",lower("donor_email"),"amount_cents","refunded_cents","fee_covered_cents","donor_email") WHERE "donations"."status" = 'succeeded' AND "donations"."campaign" IS NOT NULL;