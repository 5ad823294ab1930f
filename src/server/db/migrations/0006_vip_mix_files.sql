ALTER TABLE "vip_mixes" ALTER COLUMN "file_size" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "vip_mixes" ADD COLUMN "bitrate_kbps" integer;