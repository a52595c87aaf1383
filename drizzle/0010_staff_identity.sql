CREATE TABLE "staff_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_id" uuid NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}'::text[] NOT NULL,
	"device_type" text NOT NULL,
	"backed_up" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "staff_credentials_credential_id_unique" UNIQUE("credential_id")
);
--> statement-breakpoint
CREATE TABLE "staff_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" text NOT NULL,
	"staff_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "staff_links_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "staff_links_purpose_check" CHECK ("staff_links"."purpose" IN ('enroll', 'sign_in'))
);
--> statement-breakpoint
CREATE TABLE "staff_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "staff_members_role_check" CHECK ("staff_members"."role" IN ('viewer', 'finance', 'admin'))
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"id_hash" text NOT NULL,
	"staff_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"strong_auth_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "staff_sessions_id_hash_unique" UNIQUE("id_hash")
);
--> statement-breakpoint
CREATE TABLE "staff_webauthn_challenges" (
	"challenge" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"staff_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "staff_webauthn_challenges_purpose_check" CHECK ("staff_webauthn_challenges"."purpose" IN ('enroll', 'sign_in', 'add_passkey'))
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "admin_audit_log" ALTER COLUMN "request_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ALTER COLUMN "status_code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD COLUMN "actor_type" text DEFAULT 'operator' NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD COLUMN "actor_staff_id" uuid;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD COLUMN "actor_email" text;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD COLUMN "subject_type" text;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD COLUMN "subject_id" text;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "staff_link_id" uuid;--> statement-breakpoint
ALTER TABLE "staff_credentials" ADD CONSTRAINT "staff_credentials_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_links" ADD CONSTRAINT "staff_links_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_webauthn_challenges" ADD CONSTRAINT "staff_webauthn_challenges_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_credentials_staff_id_idx" ON "staff_credentials" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "staff_links_staff_id_idx" ON "staff_links" USING btree ("staff_id");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_members_email_unique" ON "staff_members" USING btree (lower("email")) WHERE "staff_members"."removed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "staff_sessions_staff_id_idx" ON "staff_sessions" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "staff_webauthn_challenges_expires_at_idx" ON "staff_webauthn_challenges" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD CONSTRAINT "admin_audit_log_actor_staff_id_staff_members_id_fk" FOREIGN KEY ("actor_staff_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_staff_link_id_staff_links_id_fk" FOREIGN KEY ("staff_link_id") REFERENCES "public"."staff_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_log_subject_idx" ON "admin_audit_log" USING btree ("subject_id","created_at");--> statement-breakpoint
CREATE INDEX "admin_audit_log_actor_staff_idx" ON "admin_audit_log" USING btree ("actor_staff_id","created_at");--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD CONSTRAINT "admin_audit_log_actor_type_check" CHECK ("admin_audit_log"."actor_type" IN ('operator', 'staff', 'system'));--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD CONSTRAINT "admin_audit_log_staff_actor_check" CHECK ("admin_audit_log"."actor_type" <> 'staff' OR "admin_audit_log"."actor_staff_id" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_staff_link_check" CHECK ("mail_outbox"."kind" NOT IN ('staff_invitation', 'staff_sign_in_link') OR "mail_outbox"."staff_link_id" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" IN ('receipt', 'receipt_void', 'receipt_links', 'year_end_statement', 'renewal_failed', 'plan_paused', 'plan_changed', 'manage_links', 'renewal_needs_authentication', 'card_expiring', 'partial_refund', 'staff_digest', 'staff_invitation', 'staff_sign_in_link'));