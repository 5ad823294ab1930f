ALTER TABLE "news_sources" ADD COLUMN "next_fetch_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "news_sources" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "news_sources" ADD COLUMN "failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "news_sources" ADD COLUMN "auto_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "news_sources" ADD COLUMN "http_status" integer;--> statement-breakpoint
ALTER TABLE "news_sources" ADD COLUMN "last_report" jsonb;