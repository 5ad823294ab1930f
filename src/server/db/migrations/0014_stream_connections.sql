CREATE TABLE "stream_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"mount" text NOT NULL,
	"icecast" text NOT NULL,
	"client_id" text NOT NULL,
	"network" text NOT NULL,
	"user_agent" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "stream_connections" ADD CONSTRAINT "stream_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stream_connections_open_by_user" ON "stream_connections" USING btree ("user_id") WHERE "stream_connections"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "stream_connections_by_client" ON "stream_connections" USING btree ("icecast","client_id");--> statement-breakpoint
CREATE INDEX "stream_connections_by_user_started" ON "stream_connections" USING btree ("user_id","started_at");