CREATE TABLE "listening_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"channel_id" text NOT NULL,
	"mount" text NOT NULL,
	"icecast" text NOT NULL,
	"client_id" text NOT NULL,
	"network" text NOT NULL,
	"country" text,
	"player" text NOT NULL,
	"user_agent" text NOT NULL,
	"user_id" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"duration_s" integer
);
--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD CONSTRAINT "listening_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listening_sessions_open" ON "listening_sessions" USING btree ("icecast","mount","client_id") WHERE "listening_sessions"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "listening_sessions_by_start" ON "listening_sessions" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "listening_sessions_by_user" ON "listening_sessions" USING btree ("user_id");