CREATE TABLE "listener_counts" (
	"channel_id" text NOT NULL,
	"mount" text NOT NULL,
	"resolution_min" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"average" double precision NOT NULL,
	"peak" integer NOT NULL,
	CONSTRAINT "listener_counts_resolution_min_at_channel_id_mount_pk" PRIMARY KEY("resolution_min","at","channel_id","mount")
);
--> statement-breakpoint
CREATE TABLE "listening_days" (
	"day" date NOT NULL,
	"channel_id" text NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"uniques" integer NOT NULL,
	"sessions" integer NOT NULL,
	"hours" double precision NOT NULL,
	"avg_session_s" integer NOT NULL,
	"peak" integer NOT NULL,
	"peak_at" timestamp with time zone,
	CONSTRAINT "listening_days_day_dimension_channel_id_value_pk" PRIMARY KEY("day","dimension","channel_id","value")
);
--> statement-breakpoint
CREATE TABLE "member_days" (
	"day" date NOT NULL,
	"figure" text NOT NULL,
	"bucket" text NOT NULL,
	"tier" text NOT NULL,
	"platform" text NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "member_days_day_figure_bucket_tier_platform_pk" PRIMARY KEY("day","figure","bucket","tier","platform")
);
--> statement-breakpoint
CREATE TABLE "mix_days" (
	"day" date NOT NULL,
	"mix_id" text NOT NULL,
	"plays" integer NOT NULL,
	"downloads" integer NOT NULL,
	CONSTRAINT "mix_days_day_mix_id_pk" PRIMARY KEY("day","mix_id")
);
