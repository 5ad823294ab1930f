CREATE TABLE "mix_plays" (
	"user_id" uuid NOT NULL,
	"mix_id" text NOT NULL,
	"counted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mix_plays_user_id_mix_id_pk" PRIMARY KEY("user_id","mix_id")
);
--> statement-breakpoint
CREATE TABLE "mix_stream_volume" (
	"user_id" uuid NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "mix_stream_volume_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "vip_mixes" ADD COLUMN "rendition_state" text DEFAULT 'queued' NOT NULL;--> statement-breakpoint
ALTER TABLE "vip_mixes" ADD COLUMN "rendition_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "vip_mixes" ADD COLUMN "rendition_error" text;--> statement-breakpoint
ALTER TABLE "vip_mixes" ADD COLUMN "rendition_key" text;--> statement-breakpoint
ALTER TABLE "vip_mixes" ADD COLUMN "rendition_size" bigint;--> statement-breakpoint
ALTER TABLE "vip_mixes" ADD COLUMN "rendition_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "vip_mixes" ADD COLUMN "rendition_not_before" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "vip_mixes" ADD COLUMN "rendition_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vip_mixes" ADD COLUMN "plays" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mix_plays" ADD CONSTRAINT "mix_plays_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mix_plays" ADD CONSTRAINT "mix_plays_mix_id_vip_mixes_id_fk" FOREIGN KEY ("mix_id") REFERENCES "public"."vip_mixes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mix_stream_volume" ADD CONSTRAINT "mix_stream_volume_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;