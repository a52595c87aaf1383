CREATE TABLE "recurring_plan_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL,
	"actor_type" text NOT NULL,
	"staff_member_id" uuid,
	"action" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recurring_plan_changes_actor_type_check" CHECK ("recurring_plan_changes"."actor_type" IN ('donor', 'staff', 'billing')),
	CONSTRAINT "recurring_plan_changes_staff_check" CHECK (("recurring_plan_changes"."actor_type" = 'staff') = ("recurring_plan_changes"."staff_member_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "recurring_plan_changes" ADD CONSTRAINT "recurring_plan_changes_plan_id_recurring_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."recurring_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_plan_changes" ADD CONSTRAINT "recurring_plan_changes_staff_member_id_staff_members_id_fk" FOREIGN KEY ("staff_member_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recurring_plan_changes_plan_idx" ON "recurring_plan_changes" USING btree ("plan_id","created_at");