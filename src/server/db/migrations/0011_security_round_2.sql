-- Security round 2. Independent of any other migration: it adds report columns and cleans vip_mixes.s3_url only.
ALTER TABLE "comment_reports" ADD COLUMN "reporter_network" text;--> statement-breakpoint
ALTER TABLE "comment_reports" ADD COLUMN "counted" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "hiding_reports" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Existing reports keep their effect: every open report counted until now.
UPDATE "comments" SET "hiding_reports" = "open_reports";--> statement-breakpoint
-- A mix link is a media storage key only: outside URLs (handed to every member as a redirect) are cleared.
UPDATE "vip_mixes" SET "s3_url" = NULL
WHERE "s3_url" IS NOT NULL
  AND ("s3_url" !~ '^mixes/[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.(mp3|m4a|aac|flac|wav)$' OR "s3_url" LIKE '%..%');
