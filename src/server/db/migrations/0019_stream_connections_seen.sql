ALTER TABLE "stream_connections" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stream_connections" ADD COLUMN "missed_reads" integer DEFAULT 0 NOT NULL;