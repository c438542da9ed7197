import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type ClientChannel, type McpResult, type RelayedCapability, RelayedRequestError } from '../ports';

const REQUEST_SCHEMAS = {
  sampling: CreateMessageRequestSchema,
  elicitation: ElicitRequestSchema,
  roots: ListRootsRequestSchema,
} as const;

/**
 * Lets the upstream reach the gateway's client through `channel` while a request is open: its
 * sampling, elicitation and roots requests (only those the client declared: the SDK refuses the
 * others itself) are answered by the client, and its log messages and resource updates are
 * passed on. A client's
 * refusal goes back to the upstream as the same JSON-RPC error.
 */
export function relayThrough(client: Client, channel: ClientChannel): void {
  for (const capability of Object.keys(REQUEST_SCHEMAS) as RelayedCapability[]) {
    if (channel.capabilities[capability] === undefined) continue;
    client.setRequestHandler(REQUEST_SCHEMAS[capability], async (request) => {
      try {
        return (await channel.request(request.method, request.params as McpResult | undefined)) as never;
      } catch (error) {
        if (error instanceof RelayedRequestError) throw new McpError(error.code, error.message, error.data);
        throw error;
      }
    });
  }
  for (const schema of [LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema]) {
    client.setNotificationHandler(schema, (notification) => {
      channel.notify(notification.method, notification.params as McpResult);
    });
  }
}
