import { z } from '@hono/zod-openapi';
import { MCP_AUTH_TYPES, MCP_TRANSPORTS } from '@sluice/shared/mcp/registry/schemas';

/** Response shapes of the MCP registry endpoints. auth_secret never appears in any of them. */

const serverFields = {
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  endpoint_url: z.string(),
  transport_type: z.enum(MCP_TRANSPORTS),
  auth_type: z.enum(MCP_AUTH_TYPES),
  auth_name: z
    .string()
    .nullable()
    .openapi({ description: 'Header or query parameter name (auth_type header, query)' }),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const McpServerSchema = z.object(serverFields).openapi('McpServer');

export const McpServerListItemSchema = z
  .object({
    ...serverFields,
    tool_count: z.number().int().openapi({ description: 'Tools stored by the last discovery' }),
  })
  .openapi('McpServerListItem');

export const McpServerListSchema = z.array(McpServerListItemSchema).openapi('McpServerList');

const inputSchema = z
  .record(z.string(), z.unknown())
  .openapi({ description: 'JSON Schema of the arguments' });

export const McpDiscoverySchema = z
  .object({
    server_id: z.uuid(),
    tools_discovered: z.number().int(),
    tools: z.array(z.object({ name: z.string(), description: z.string(), input_schema: inputSchema })),
  })
  .openapi('McpDiscovery');

export const McpToolListSchema = z
  .array(
    z.object({
      id: z.uuid(),
      server_id: z.uuid(),
      server_name: z.string(),
      name: z.string(),
      description: z.string(),
      input_schema: inputSchema,
    }),
  )
  .openapi('McpToolList');
