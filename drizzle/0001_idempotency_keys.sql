CREATE TABLE "idempotency_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text DEFAULT 'in_flight' NOT NULL,
	"donation_id" uuid NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_donation_id_unique" UNIQUE("donation_id"),
	CONSTRAINT "idempotency_keys_key_check" CHECK (char_length("idempotency_keys"."key") BETWEEN 1 AND 255),
	CONSTRAINT "idempotency_keys_status_check" CHECK ("idempotency_keys"."status" IN ('in_flight', 'completed')),
	CONSTRAINT "idempotency_keys_completed_check" CHECK ("idempotency_keys"."status" <> 'completed' OR ("idempotency_keys"."response_status" IS NOT NULL AND "idempotency_keys"."response_body" IS NOT NULL)),
	CONSTRAINT "idempotency_keys_expires_at_check" CHECK ("idempotency_keys"."expires_at" >= "idempotency_keys"."created_at" + interval '24 hours')
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys" USING btree ("expires_at");