-- pg_trgm backs the admin user search index; it is trusted on PostgreSQL 13+ and PGlite loads its build.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"username" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"password_hash" text,
	"is_admin" boolean DEFAULT false NOT NULL,
	"subscription_tier" text DEFAULT 'free' NOT NULL,
	"subscription_status" text DEFAULT 'inactive' NOT NULL,
	"subscription_expiry" timestamp with time zone,
	"subscription_source" text DEFAULT 'admin' NOT NULL,
	"pledge_amount_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	"search_text" text GENERATED ALWAYS AS (lower(email || ' ' || username || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, ''))) STORED,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "auth_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"email" text NOT NULL,
	"user_id" uuid,
	"token_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "auth_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"colour" text NOT NULL,
	"stream_url" text NOT NULL,
	"status_url" text,
	"bitrate_label" text NOT NULL,
	"required_tier" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "news_items" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"link" text NOT NULL,
	"image_url" text,
	"source" text NOT NULL,
	"pub_date" timestamp with time zone NOT NULL,
	"type" text NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_products" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"price" numeric(10, 2) NOT NULL,
	"original_price" numeric(10, 2),
	"category" text NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sizes" jsonb,
	"colors" jsonb,
	"rating" numeric(2, 1) DEFAULT 5 NOT NULL,
	"reviews" integer DEFAULT 0 NOT NULL,
	"in_stock" boolean DEFAULT true NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"redbubble_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vip_mixes" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"artist" text NOT NULL,
	"genre" text NOT NULL,
	"duration" integer NOT NULL,
	"file_size" integer NOT NULL,
	"artwork_url" text,
	"is_exclusive" boolean DEFAULT true NOT NULL,
	"rating" numeric(2, 1) DEFAULT 5 NOT NULL,
	"total_downloads" integer DEFAULT 0 NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"s3_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "track_identifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"channel" text NOT NULL,
	"title" text NOT NULL,
	"artist" text NOT NULL,
	"album" text,
	"artwork" text,
	"confidence" integer NOT NULL,
	"service" text NOT NULL,
	"duration_s" integer,
	"release_date" text,
	"label" text,
	"genre" text,
	"bpm" integer,
	"youtube_url" text,
	"soundcloud_url" text,
	"spotify_url" text,
	"identified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mix_downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"mix_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_subscriptions" (
	"platform" text NOT NULL,
	"email" text NOT NULL,
	"external_id" text,
	"full_name" text,
	"platform_status" text,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"last_charge_at" timestamp with time zone,
	"next_charge_at" timestamp with time zone,
	"last_charge_status" text,
	"period_end_at" timestamp with time zone,
	"is_cancelled" boolean DEFAULT false NOT NULL,
	"cancelled_at_period_end" boolean DEFAULT false NOT NULL,
	"cancelled_at" timestamp with time zone,
	"raw" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_event" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_subscriptions_platform_email_pk" PRIMARY KEY("platform","email")
);
--> statement-breakpoint
CREATE TABLE "sync_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"updated" integer NOT NULL,
	"platforms" jsonb NOT NULL,
	"errors" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"platform" text NOT NULL,
	"delivery_key" text NOT NULL,
	"event" text NOT NULL,
	"email" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_platform_delivery_key_pk" PRIMARY KEY("platform","delivery_key")
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_identifications" ADD CONSTRAINT "track_identifications_channel_channels_id_fk" FOREIGN KEY ("channel") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mix_downloads" ADD CONSTRAINT "mix_downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mix_downloads" ADD CONSTRAINT "mix_downloads_mix_id_vip_mixes_id_fk" FOREIGN KEY ("mix_id") REFERENCES "public"."vip_mixes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "users_username_idx" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "users_search_text_trgm_idx" ON "users" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "auth_tokens_email_kind_idx" ON "auth_tokens" USING btree ("email","kind");--> statement-breakpoint
CREATE INDEX "auth_tokens_expires_idx" ON "auth_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "rate_limits_reset_idx" ON "rate_limits" USING btree ("reset_at");--> statement-breakpoint
CREATE INDEX "track_ident_channel_time_idx" ON "track_identifications" USING btree ("channel","identified_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "track_ident_time_idx" ON "track_identifications" USING btree ("identified_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "track_ident_artist_idx" ON "track_identifications" USING btree (lower("artist"));--> statement-breakpoint
CREATE INDEX "mix_downloads_time_idx" ON "mix_downloads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "mix_downloads_user_time_idx" ON "mix_downloads" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "platform_subs_email_idx" ON "platform_subscriptions" USING btree ("email");--> statement-breakpoint
CREATE INDEX "sync_runs_finished_idx" ON "sync_runs" USING btree ("finished_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_time_idx" ON "webhook_deliveries" USING btree ("received_at");