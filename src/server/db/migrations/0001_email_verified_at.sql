ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
-- Backfill (ADR 0013): every member that exists before this migration counts as verified. The default
-- above already filled them with now(); their sign-up date is the more honest value.
UPDATE "users" SET "email_verified_at" = "created_at";
