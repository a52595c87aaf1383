ALTER TABLE "donations" DROP CONSTRAINT "donations_locale_check";--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_locale_check";--> statement-breakpoint
ALTER TABLE "recurring_plans" DROP CONSTRAINT "recurring_plans_locale_check";--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_locale_check" CHECK ("donations"."locale" ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$');--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_locale_check" CHECK ("mail_outbox"."locale" ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$');--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD CONSTRAINT "recurring_plans_locale_check" CHECK ("recurring_plans"."locale" ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$');