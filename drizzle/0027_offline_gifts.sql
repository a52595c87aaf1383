CREATE TABLE "offline_gifts" (
	"donation_id" uuid PRIMARY KEY NOT NULL,
	"reference" text,
	"received_on" date NOT NULL,
	"note" text,
	"entry_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"source" text NOT NULL,
	"receipt_emailed" boolean NOT NULL,
	"voided_at" timestamp with time zone,
	"void_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offline_gifts_entry_key_unique" UNIQUE("entry_key"),
	CONSTRAINT "offline_gifts_source_check" CHECK ("offline_gifts"."source" IN ('staff', 'operator', 'import')),
	CONSTRAINT "offline_gifts_void_check" CHECK (("offline_gifts"."voided_at" IS NULL) = ("offline_gifts"."void_reason" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "donations" DROP CONSTRAINT "donations_card_known_check";--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "payment_method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "offline_gifts" ADD CONSTRAINT "offline_gifts_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offline_gifts_received_on_idx" ON "offline_gifts" USING btree ("received_on");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_payment_method_check" CHECK ("donations"."payment_method" IN ('card', 'cheque', 'cash', 'bank_transfer', 'other'));--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_card_known_check" CHECK ("donations"."status" <> 'succeeded' OR "donations"."payment_method" <> 'card' OR ("donations"."card_brand" IS NOT NULL AND "donations"."card_last4" IS NOT NULL));