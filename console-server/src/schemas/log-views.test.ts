import { mcpLogSchema } from '@sluice/shared/logs/mcp';
import { requestLogSchema } from '@sluice/shared/logs/requests';
import { accessLogSchema, appLogSchema } from '@sluice/shared/logs/server';
import { describe, expect, it } from 'vitest';
import { GatewayLogEntrySchema } from './gateway-logs';
import { McpLogEntrySchema } from './mcp';
import { AccessLogEntrySchema, AppLogEntrySchema } from './server-logs';

// Each log's column table makes its API view (toView); the OpenAPI schema the console documents
// must name exactly those fields, or the reference and the answers drift apart.
describe('log views follow their column tables', () => {
  const cases = [
    ['request log', requestLogSchema.viewFields, GatewayLogEntrySchema.shape],
    ['MCP log', mcpLogSchema.viewFields, McpLogEntrySchema.shape],
    ['access log', accessLogSchema.viewFields, AccessLogEntrySchema.shape],
    ['app log', appLogSchema.viewFields, AppLogEntrySchema.shape],
  ] as const;
  it.each(cases)('%s: the OpenAPI entry lists exactly the view fields', (_, fields, shape) => {
    expect(Object.keys(shape).sort()).toEqual([...fields].sort());
  });

  it('a record becomes its view: snake_case names, created_at in ISO 8601, values as recorded', () => {
    const view = mcpLogSchema.toView({
      id: '0b7f8c3e-5d1a-4c2b-9e6f-1a2b3c4d5e6f',
      createdAt: new Date('2026-11-27T04:05:06.789Z'),
      userId: null,
      apiKeyId: '4d5e6f70-8192-4a3b-8c4d-5e6f708192a3',
      serverId: '70819203-a4b5-4c6d-8e7f-8091a2b3c4d5',
      serverName: 'everything',
      toolName: 'echo',
      status: 'error',
      durationMs: 12,
      error: 'upstream said no',
    });
    expect(view).toEqual({
      id: '0b7f8c3e-5d1a-4c2b-9e6f-1a2b3c4d5e6f',
      created_at: '2026-11-27T04:05:06.789Z',
      user_id: null,
      api_key_id: '4d5e6f70-8192-4a3b-8c4d-5e6f708192a3',
      server_id: '70819203-a4b5-4c6d-8e7f-8091a2b3c4d5',
      server_name: 'everything',
      tool_name: 'echo',
      status: 'error',
      duration_ms: 12,
      error: 'upstream said no',
    });
    expect(McpLogEntrySchema.strict().parse(view)).toEqual(view);
  });
});
