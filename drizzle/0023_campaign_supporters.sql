CREATE TABLE "campaign_supporters" (
	"donation_id" uuid PRIMARY KEY NOT NULL,
	"campaign" text NOT NULL,
	"show_name" boolean NOT NULL,
	"show_message" boolean NOT NULL,
	"hidden_at" timestamp with time zone,
	"hidden_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_supporters" ADD CONSTRAINT "campaign_supporters_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_supporters" ADD CONSTRAINT "campaign_supporters_hidden_by_staff_members_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_supporters_campaign_idx" ON "campaign_supporters" USING btree ("campaign","created_at");