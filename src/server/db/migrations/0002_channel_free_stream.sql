ALTER TABLE "channels" ADD COLUMN "free_stream_url" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "free_bitrate_label" text;--> statement-breakpoint
-- Backfill: DHR1's programme has a free 128 kbps mount (its URL follows DHR1_FREE_STREAM_URL at every start).
UPDATE "channels" SET "free_bitrate_label" = '128kbps' WHERE "id" = 'dhr1' AND "free_bitrate_label" IS NULL;
