CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"donation_id" uuid,
	"recipient" text NOT NULL,
	"statement_year" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_dedupe_key_unique" UNIQUE("dedupe_key"),
	CONSTRAINT "mail_outbox_kind_donation_unique" UNIQUE("kind","donation_id"),
	CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" IN ('receipt', 'receipt_void', 'receipt_links', 'year_end_statement')),
	CONSTRAINT "mail_outbox_status_check" CHECK ("mail_outbox"."status" IN ('pending', 'sent', 'failed')),
	CONSTRAINT "mail_outbox_attempts_check" CHECK ("mail_outbox"."attempts" >= 0),
	CONSTRAINT "mail_outbox_donation_check" CHECK (("mail_outbox"."kind" NOT IN ('receipt', 'receipt_void') OR "mail_outbox"."donation_id" IS NOT NULL) AND ("mail_outbox"."kind" <> 'year_end_statement' OR "mail_outbox"."statement_year" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "receipt_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "receipt_counters_last_number_check" CHECK ("receipt_counters"."last_number" >= 1)
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"number" text PRIMARY KEY NOT NULL,
	"donation_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"voided_at" timestamp with time zone,
	CONSTRAINT "receipts_donation_id_unique" UNIQUE("donation_id"),
	CONSTRAINT "receipts_year_sequence_unique" UNIQUE("year","sequence"),
	CONSTRAINT "receipts_sequence_check" CHECK ("receipts"."sequence" >= 1),
	CONSTRAINT "receipts_number_check" CHECK ("receipts"."number" ~ '^[0-9]{4}-[0-9]{6,}$')
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "donations_donor_email_lower_idx" ON "donations" USING btree (lower("donor_email"));