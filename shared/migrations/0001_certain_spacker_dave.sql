CREATE TABLE "request_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"api_key_id" uuid,
	"endpoint" text NOT NULL,
	"model" text NOT NULL,
	"provider" text,
	"provider_type" text,
	"upstream_model" text,
	"route_id" uuid,
	"stream" boolean NOT NULL,
	"status_code" integer NOT NULL,
	"error_type" text,
	"error_message" text,
	"prompt_tokens" bigint NOT NULL,
	"completion_tokens" bigint NOT NULL,
	"cached_tokens" bigint NOT NULL,
	"total_tokens" bigint NOT NULL,
	"weighted_tokens" bigint NOT NULL,
	"cost_usd" double precision,
	"unpriced" boolean NOT NULL,
	"latency_ms" integer NOT NULL,
	"upstream_latency_ms" integer,
	"cache_hit" boolean NOT NULL,
	"attempts" integer NOT NULL,
	"client_aborted" boolean NOT NULL,
	CONSTRAINT "request_logs_endpoint_check" CHECK ("request_logs"."endpoint" in ('/v1/chat/completions','/v1/messages','/v1/responses'))
);
--> statement-breakpoint
CREATE INDEX "request_logs_created_idx" ON "request_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "request_logs_api_key_created_idx" ON "request_logs" USING btree ("api_key_id","created_at");--> statement-breakpoint
CREATE INDEX "request_logs_user_created_idx" ON "request_logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "request_logs_model_created_idx" ON "request_logs" USING btree ("model","created_at");