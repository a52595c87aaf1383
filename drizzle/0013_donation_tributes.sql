ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_status_check";--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "tribute_type" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "tribute_honoree_name" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "tribute_notify_name" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "tribute_notify_email" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "tribute_notify_message" text;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_tribute_check" CHECK ("donations"."tribute_type" IN ('honor', 'memory') AND ("donations"."tribute_type" IS NULL) = ("donations"."tribute_honoree_name" IS NULL) AND ("donations"."tribute_notify_name" IS NULL) = ("donations"."tribute_notify_email" IS NULL) AND ("donations"."tribute_notify_email" IS NULL OR "donations"."tribute_type" IS NOT NULL) AND ("donations"."tribute_notify_message" IS NULL OR "donations"."tribute_notify_email" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_tribute_check" CHECK ("mail_outbox"."kind" NOT IN ('tribute_card') OR "mail_outbox"."donation_id" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" IN ('receipt', 'receipt_void', 'receipt_links', 'year_end_statement', 'receipt_resend', 'renewal_failed', 'plan_paused', 'plan_changed', 'manage_links', 'renewal_needs_authentication', 'card_expiring', 'partial_refund', 'staff_digest', 'staff_invitation', 'staff_sign_in_link', 'tribute_card'));--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_status_check" CHECK ("mail_outbox"."status" IN ('pending', 'sent', 'failed', 'cancelled'));