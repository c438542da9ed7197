import { z } from '@hono/zod-openapi';
import { pageQuerySchema } from '@sluice/shared/db';
import {
  DEFAULT_MCP_LOG_LIMIT,
  MAX_MCP_LOG_LIMIT,
  MCP_LOG_SORTS,
  MCP_LOG_STATUSES,
} from '@sluice/shared/logs/mcp';
import { MCP_AUTH_TYPES, MCP_TRANSPORTS } from '@sluice/shared/mcp/registry';
import { listSchema } from './page';

/** Shapes of the MCP registry and call-log endpoints. auth_secret never appears in any of them. */

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
  oauth_client_id: z
    .string()
    .nullable()
    .openapi({
      description:
        'The client registered beforehand at the authorization server: auth_type oauth (null: Sluice registers one), ' +
        'oauth_client_credentials (Sluice signs in as it), oauth_jwt_bearer (optional), ' +
        "oauth_token_exchange (presents each user's identity assertion grant)",
    }),
  has_oauth_client_secret: z
    .boolean()
    .openapi({ description: 'Whether a secret is stored for that client (it is never returned)' }),
  has_oauth_private_key: z.boolean().openapi({
    description: 'Whether a private key is stored for that client (private_key_jwt; it is never returned)',
  }),
  idp_issuer: z.string().nullable().openapi({
    description:
      'auth_type oauth_token_exchange: the identity provider whose ID tokens are exchanged for identity assertion grants',
  }),
  idp_client_id: z.string().nullable().openapi({
    description: 'auth_type oauth_token_exchange: the client Sluice is at the identity provider',
  }),
  has_idp_client_secret: z
    .boolean()
    .openapi({ description: 'Whether a secret is stored for that client (it is never returned)' }),
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

export const McpServerPageSchema = listSchema(McpServerListItemSchema, 'McpServerPage');

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

/** GET /api/mcp/tools query: the page, and the filters the tools screen searches with. */
export const McpToolQuerySchema = pageQuerySchema.extend({
  q: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: "Case-insensitive substring of the tool's name or description" }),
  server: z.string().min(1).max(200).optional().openapi({ description: "The server's name, exactly" }),
});

export const McpToolPageSchema = listSchema(
  z
    .object({
      id: z.uuid(),
      server_id: z.uuid(),
      server_name: z.string(),
      name: z.string(),
      description: z.string(),
      input_schema: inputSchema,
    })
    .openapi('McpTool'),
  'McpToolPage',
);

export const McpVirtualServerSchema = z
  .object({
    id: z.uuid(),
    name: z.string().openapi({ description: 'Served at /mcp/{name}' }),
    description: z.string().nullable(),
    tools: z.array(z.string()).openapi({
      description:
        '<server>__<tool> names; one that does not exist (or whose server is inactive) is not served',
    }),
    is_active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('McpVirtualServer');

export const McpVirtualServerPageSchema = listSchema(McpVirtualServerSchema, 'McpVirtualServerPage');

/** An instant with an explicit zone, or a date (00:00 UTC of that day), as the audit search takes. */
/** A query-string instant: an ISO 8601 date-time with offset, or a date (00:00 UTC). */
export const isoInstant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a valid ISO 8601 date or date-time');

/** GET /api/mcp/logs query. A limit above 200 is refused (422), not clamped. */
export const McpLogQuerySchema = z
  .object({
    user_id: z.uuid().optional().openapi({ description: 'Only calls made by this user' }),
    server_id: z.uuid().optional().openapi({ description: 'Only calls to this server' }),
    tool_name: z.string().min(1).max(256).optional().openapi({ description: 'Exact tool name' }),
    status: z.enum(MCP_LOG_STATUSES).optional(),
    from: isoInstant.optional().openapi({ description: 'Inclusive lower bound on created_at' }),
    to: isoInstant.optional().openapi({ description: 'Inclusive upper bound on created_at' }),
    sort_by: z
      .enum(MCP_LOG_SORTS)
      .default('created_at')
      .openapi({ description: 'Always descending; ties by id descending' }),
    limit: z.coerce.number().int().min(1).max(MAX_MCP_LOG_LIMIT).default(DEFAULT_MCP_LOG_LIMIT),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine((v) => !v.from || !v.to || Date.parse(v.from) <= Date.parse(v.to), {
    path: ['from'],
    message: 'must not be after to',
  });
export type McpLogQueryParams = z.infer<typeof McpLogQuerySchema>;

export const McpLogEntrySchema = z
  .object({
    id: z.uuid(),
    created_at: z.string(),
    user_id: z.uuid().nullable(),
    api_key_id: z.uuid().nullable(),
    server_id: z.uuid(),
    server_name: z.string().openapi({ description: 'As it was at call time; the server may be gone' }),
    tool_name: z.string(),
    status: z.enum(MCP_LOG_STATUSES),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
  })
  .openapi('McpLogEntry');

export const McpLogPageSchema = z
  .object({
    total: z.number().int().openapi({ description: 'Calls matching the filters' }),
    offset: z.number().int(),
    limit: z.number().int(),
    entries: z.array(McpLogEntrySchema),
  })
  .openapi('McpLogPage');
