CREATE TABLE "platform_links" (
	"platform" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"user_id" uuid NOT NULL,
	"via" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_links_platform_kind_key_pk" PRIMARY KEY("platform","kind","key")
);
--> statement-breakpoint
ALTER TABLE "platform_subscriptions" ADD COLUMN "platform_user_id" text;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "details" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "platform_links" ADD CONSTRAINT "platform_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_links_user_idx" ON "platform_links" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "platform_subs_user_id_idx" ON "platform_subscriptions" USING btree ("platform_user_id");