ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_donation_unique";--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_donation_check";--> statement-breakpoint
CREATE INDEX "donations_created_at_id_idx" ON "donations" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "donations_amount_created_at_id_idx" ON "donations" USING btree ("amount_cents","created_at","id");--> statement-breakpoint
CREATE INDEX "donations_status_created_at_amounts_idx" ON "donations" USING btree ("status","created_at","amount_cents","refunded_cents");--> statement-breakpoint
CREATE INDEX "donations_donor_search_idx" ON "donations" USING gin (to_tsvector('simple'::regconfig, translate("donor_name" || ' ' || "donor_email", '@.+_-', '     ')));--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_kind_donation_unique" ON "mail_outbox" USING btree ("kind","donation_id") WHERE "mail_outbox"."kind" <> 'receipt_resend';--> statement-breakpoint
CREATE INDEX "mail_outbox_donation_id_idx" ON "mail_outbox" USING btree ("donation_id");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" IN ('receipt', 'receipt_void', 'receipt_links', 'year_end_statement', 'receipt_resend', 'renewal_failed', 'plan_paused', 'plan_changed', 'manage_links', 'renewal_needs_authentication', 'card_expiring', 'partial_refund', 'staff_digest', 'staff_invitation', 'staff_sign_in_link'));--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_donation_check" CHECK (("mail_outbox"."kind" NOT IN ('receipt', 'receipt_void', 'receipt_resend') OR "mail_outbox"."donation_id" IS NOT NULL) AND ("mail_outbox"."kind" <> 'year_end_statement' OR "mail_outbox"."statement_year" IS NOT NULL));