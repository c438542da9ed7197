CREATE TABLE "tool_limits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"kind" text NOT NULL,
	"window" text NOT NULL,
	"limit" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_limits_subject_check" CHECK ("tool_limits"."subject_type" in ('role','user','api_key')),
	CONSTRAINT "tool_limits_window_check" CHECK (("tool_limits"."kind" = 'rate' and "tool_limits"."window" in ('1m','5m','1h','5h','1d','1w')) or ("tool_limits"."kind" = 'budget' and "tool_limits"."window" in ('daily','weekly','monthly'))),
	CONSTRAINT "tool_limits_limit_check" CHECK ("tool_limits"."limit" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "tool_limits_subject_key" ON "tool_limits" USING btree ("subject_type","subject_id","tool","kind","window");