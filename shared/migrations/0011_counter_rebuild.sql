CREATE TABLE "store_markers" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "uncounted" boolean DEFAULT false NOT NULL;