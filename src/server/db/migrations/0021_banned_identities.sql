CREATE TABLE "banned_identities" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"banned_user_id" uuid,
	"reason" text NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banned_identities_kind_key_pk" PRIMARY KEY("kind","key")
);
--> statement-breakpoint
ALTER TABLE "banned_identities" ADD CONSTRAINT "banned_identities_banned_user_id_users_id_fk" FOREIGN KEY ("banned_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "banned_identities_user_idx" ON "banned_identities" USING btree ("banned_user_id");