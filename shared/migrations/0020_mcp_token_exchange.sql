ALTER TABLE "mcp_servers" DROP CONSTRAINT "mcp_servers_auth_check";--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD COLUMN "idp_issuer" text;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD COLUMN "idp_client_id" text;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD COLUMN "idp_client_secret_encrypted" text;--> statement-breakpoint
ALTER TABLE "mcp_user_tokens" ADD COLUMN "id_token_encrypted" text;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_auth_check" CHECK ("mcp_servers"."auth_type" in ('none','bearer','header','query','oauth','oauth_client_credentials','oauth_jwt_bearer','oauth_token_exchange'));