CREATE TABLE "mix_play_hours" (
	"mix_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "mix_play_hours_mix_id_hour_pk" PRIMARY KEY("mix_id","hour")
);
--> statement-breakpoint
ALTER TABLE "mix_play_hours" ADD CONSTRAINT "mix_play_hours_mix_id_vip_mixes_id_fk" FOREIGN KEY ("mix_id") REFERENCES "public"."vip_mixes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mix_play_hours_hour_idx" ON "mix_play_hours" USING btree ("hour");--> statement-breakpoint
-- The plays counted before this table: each member's last counted play of a mix, all that was kept.
INSERT INTO "mix_play_hours" ("mix_id", "hour", "plays")
SELECT "mix_id", date_trunc('hour', "counted_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*)::integer
FROM "mix_plays" GROUP BY 1, 2;
