import { createSecretBox, type SecretBox } from '@sluice/shared/auth/secret-box';
import type { StoreEnv } from '@sluice/shared/config/env';
import type { McpServerRow } from '@sluice/shared/db/repos/mcp-repo';
import type { Db } from '@sluice/shared/db/types';
import { createBatchingLedgerWriter } from '@sluice/shared/ledger/batching-writer';
import { createCatalogCache } from '@sluice/shared/mcp/gateway/catalog';
import type { MethodDeps } from '@sluice/shared/mcp/gateway/methods';
import { createRedisSessionStore } from '@sluice/shared/mcp/gateway/sessions';
import type { McpLogRecord, McpLogStore } from '@sluice/shared/mcp/ports';
import { toMcpServerTarget } from '@sluice/shared/mcp/registry/target';
import { createSdkConnector } from '@sluice/shared/mcp/upstream/sdk-connector';
import { createDropReporter } from '@sluice/shared/metrics/dropped';
import type { MetricsStore } from '@sluice/shared/metrics/store';
import type { Logger } from '@sluice/shared/server-logs/logger';
import type { SettingsReader } from '@sluice/shared/settings/settings-cache';
import type { Redis } from '@upstash/redis';

/** Upstream MCP calls get longer than a store call: tools may run a while. */
const MCP_UPSTREAM_TIMEOUT_MS = 60_000;

/** The /mcp endpoint's ports, built once per isolate. */
export function buildMcpDeps(
  config: StoreEnv,
  db: Db,
  redis: Redis,
  settings: SettingsReader,
  callLogStore: McpLogStore,
  metrics: MetricsStore,
  log: Logger,
): MethodDeps {
  const warn = (message: string, fields: Record<string, unknown> = {}) => log.warn(message, fields);
  let secretBox: Promise<SecretBox> | undefined;
  const drops = createDropReporter(metrics, 'mcp', warn);
  const callLog = createBatchingLedgerWriter<McpLogRecord>(callLogStore, {
    onError: (error, records) =>
      warn('MCP call log write failed', { error: String(error), records: records.length }),
    onDrop: drops.onDrop,
  });
  return {
    sessions: createRedisSessionStore(
      redis,
      async () => (await settings.get()).mcp_session_idle_seconds * 1000,
    ),
    toolAccess: async () => (await settings.get()).mcp_tool_access,
    catalog: createCatalogCache(db, redis),
    connector: createSdkConnector({ validateToolOutput: false }),
    targetOf: async (server: McpServerRow) => {
      secretBox ??= createSecretBox(config.SLUICE_ENCRYPTION_KEY);
      return toMcpServerTarget(server, await secretBox);
    },
    logCall: (record) => callLog.write(record).then(drops.settled),
    timeoutMs: MCP_UPSTREAM_TIMEOUT_MS,
    warn,
  };
}
