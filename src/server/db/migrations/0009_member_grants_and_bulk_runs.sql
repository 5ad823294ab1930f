CREATE TABLE "held_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer,
	"user_id" uuid NOT NULL,
	"source" text NOT NULL,
	"current" jsonb,
	"next" jsonb,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"cause" text NOT NULL,
	"cause_ref" text,
	"run_id" integer,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"grants_before" jsonb NOT NULL,
	"grants_after" jsonb NOT NULL,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "member_grants" (
	"user_id" uuid NOT NULL,
	"source" text NOT NULL,
	"tier" text NOT NULL,
	"status" text NOT NULL,
	"expiry" timestamp with time zone,
	"pledge_amount_cents" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_grants_user_id_source_pk" PRIMARY KEY("user_id","source")
);
--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "started_by" uuid;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "reverted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "reverted_by_run" integer;--> statement-breakpoint
ALTER TABLE "held_changes" ADD CONSTRAINT "held_changes_run_id_sync_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."sync_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_changes" ADD CONSTRAINT "held_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_changes" ADD CONSTRAINT "member_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_changes" ADD CONSTRAINT "member_changes_run_id_sync_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."sync_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_grants" ADD CONSTRAINT "member_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "held_changes_member_source_idx" ON "held_changes" USING btree ("user_id","source");--> statement-breakpoint
CREATE INDEX "member_changes_user_idx" ON "member_changes" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "member_changes_run_idx" ON "member_changes" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "member_grants_expiry_idx" ON "member_grants" USING btree ("expiry");--> statement-breakpoint
-- Every paid subscription stored on a member row becomes the grant of its source.
INSERT INTO "member_grants" ("user_id", "source", "tier", "status", "expiry", "pledge_amount_cents")
SELECT "id", "subscription_source", "subscription_tier", "subscription_status", "subscription_expiry", "pledge_amount_cents"
FROM "users" WHERE "subscription_tier" <> 'free';--> statement-breakpoint
-- Paid time is never cut short: a cancelled subscription paid to a future date keeps access until then.
UPDATE "member_grants" SET "status" = 'cancelled_with_access' WHERE "status" = 'cancelled' AND "expiry" > now();--> statement-breakpoint
UPDATE "users" SET "subscription_status" = 'cancelled_with_access' WHERE "subscription_tier" <> 'free' AND "subscription_status" = 'cancelled' AND "subscription_expiry" > now();
