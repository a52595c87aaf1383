CREATE TABLE "donor_merges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_donor_key" text NOT NULL,
	"source_email" text NOT NULL,
	"target_donor_key" text NOT NULL,
	"target_email" text NOT NULL,
	"target_name" text NOT NULL,
	"changes" jsonb NOT NULL,
	"merged_by_staff_id" uuid NOT NULL,
	"merged_by_email" text NOT NULL,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone,
	"undone_by_email" text,
	CONSTRAINT "donor_merges_two_donors_check" CHECK ("donor_merges"."source_donor_key" <> "donor_merges"."target_donor_key")
);
--> statement-breakpoint
CREATE TABLE "donor_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"donor_key" text NOT NULL,
	"body" text NOT NULL,
	"author_staff_id" uuid NOT NULL,
	"author_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "donor_notes_body_check" CHECK (char_length("donor_notes"."body") BETWEEN 1 AND 2000)
);
--> statement-breakpoint
ALTER TABLE "donor_merges" ADD CONSTRAINT "donor_merges_merged_by_staff_id_staff_members_id_fk" FOREIGN KEY ("merged_by_staff_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donor_notes" ADD CONSTRAINT "donor_notes_author_staff_id_staff_members_id_fk" FOREIGN KEY ("author_staff_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donor_merges_target_idx" ON "donor_merges" USING btree ("target_donor_key","merged_at");--> statement-breakpoint
CREATE INDEX "donor_notes_donor_key_idx" ON "donor_notes" USING btree ("donor_key","created_at");--> statement-breakpoint
CREATE INDEX "admin_audit_log_donor_donations_idx" ON "admin_audit_log" USING gin (("details" -> 'donationIds')) WHERE "admin_audit_log"."subject_type" = 'donor';