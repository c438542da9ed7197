ALTER TABLE "model_prices" ADD COLUMN "cache_write_price_per_mtok" numeric;--> statement-breakpoint
ALTER TABLE "model_prices" ADD COLUMN "cache_write_1h_price_per_mtok" numeric;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "cache_write_price_per_mtok" numeric;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "cache_write_1h_price_per_mtok" numeric;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "max_output_tokens" integer;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "cache_breakpoints" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "cache_write_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "cache_write_hour_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "reasoning_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "reasoning_effort" text;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "client_name" text;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "client_version" text;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "session_id" text;--> statement-breakpoint
CREATE INDEX "request_logs_client_created_idx" ON "request_logs" USING btree ("client_name","created_at");--> statement-breakpoint
-- Anthropic's list prices for prompt-cache writes: 1.25x the input price for the five-minute
-- lifetime, 2x for one hour (Bedrock's Claude ids find these entries too). Rows an admin has
-- already given write prices keep them.
UPDATE "model_prices" SET "cache_write_price_per_mtok" = "input_price_per_mtok" * 1.25,
  "cache_write_1h_price_per_mtok" = "input_price_per_mtok" * 2
  WHERE "vendor" = 'anthropic' AND "cache_write_price_per_mtok" IS NULL;
