CREATE TABLE "mcp_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"api_key_id" uuid,
	"server_id" uuid NOT NULL,
	"server_name" text NOT NULL,
	"tool_name" text NOT NULL,
	"status" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"error" text,
	CONSTRAINT "mcp_logs_status_check" CHECK ("mcp_logs"."status" in ('success','error'))
);
--> statement-breakpoint
CREATE INDEX "mcp_logs_created_idx" ON "mcp_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "mcp_logs_server_created_idx" ON "mcp_logs" USING btree ("server_id","created_at");