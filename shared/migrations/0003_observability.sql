CREATE TABLE "model_prices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"model" text NOT NULL,
	"vendor" text NOT NULL,
	"input_price_per_mtok" numeric NOT NULL,
	"output_price_per_mtok" numeric NOT NULL,
	"cached_input_price_per_mtok" numeric,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"port" integer NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status_code" integer NOT NULL,
	"user_id" uuid,
	"latency_ms" integer NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "app_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"level" smallint NOT NULL,
	"source" text NOT NULL,
	"target" text NOT NULL,
	"message" text NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "app_logs_level_check" CHECK ("app_logs"."level" in (10, 20, 30, 40, 50)),
	CONSTRAINT "app_logs_source_check" CHECK ("app_logs"."source" in ('gateway', 'console'))
);
--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "cached_input_price_per_mtok" numeric;--> statement-breakpoint
CREATE UNIQUE INDEX "model_prices_model_key" ON "model_prices" USING btree ("model");--> statement-breakpoint
CREATE INDEX "access_logs_created_idx" ON "access_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "access_logs_status_created_idx" ON "access_logs" USING btree ("status_code","created_at");--> statement-breakpoint
CREATE INDEX "access_logs_user_created_idx" ON "access_logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "app_logs_created_idx" ON "app_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "app_logs_level_created_idx" ON "app_logs" USING btree ("level","created_at");