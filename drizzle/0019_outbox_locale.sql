ALTER TABLE "mail_outbox" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_locale_check" CHECK ("mail_outbox"."locale" IN ('en', 'es'));