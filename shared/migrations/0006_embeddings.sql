ALTER TABLE "request_logs" DROP CONSTRAINT "request_logs_endpoint_check";--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "kind" text DEFAULT 'chat' NOT NULL;--> statement-breakpoint
ALTER TABLE "models" ADD CONSTRAINT "models_kind_check" CHECK ("models"."kind" in ('chat','embedding'));--> statement-breakpoint
ALTER TABLE "request_logs" ADD CONSTRAINT "request_logs_endpoint_check" CHECK ("request_logs"."endpoint" in ('/v1/chat/completions','/v1/messages','/v1/responses','/v1/messages/count_tokens','/v1/embeddings'));