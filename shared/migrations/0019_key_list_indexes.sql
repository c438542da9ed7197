CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "api_keys_user_id_idx";--> statement-breakpoint
CREATE INDEX "api_keys_created_idx" ON "api_keys" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "api_keys_user_created_idx" ON "api_keys" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "api_keys_name_trgm_idx" ON "api_keys" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "api_keys_prefix_trgm_idx" ON "api_keys" USING gin ("prefix" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);