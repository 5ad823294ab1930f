ALTER TABLE "member_changes" ADD COLUMN "names_before" jsonb;--> statement-breakpoint
ALTER TABLE "member_changes" ADD COLUMN "names_after" jsonb;