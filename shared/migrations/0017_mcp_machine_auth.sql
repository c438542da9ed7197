ALTER TABLE "mcp_servers" DROP CONSTRAINT "mcp_servers_auth_check";--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD COLUMN "oauth_private_key_encrypted" text;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_auth_check" CHECK ("mcp_servers"."auth_type" in ('none','bearer','header','query','oauth','oauth_client_credentials','oauth_jwt_bearer'));