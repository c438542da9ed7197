import type { StoreEnv } from '@sluice/shared/config';
import type { QueryDb } from '@sluice/shared/db';
import type { McpServerRow } from '@sluice/shared/db/repos';
import { upstreamOAuthStore } from '@sluice/shared/db/repos';
import type { WarmCaches } from '@sluice/shared/gateway';
import { redactPolicyOf, toolPolicyOf } from '@sluice/shared/guardrails';
import { createToolGate } from '@sluice/shared/limits';
import type { Logger } from '@sluice/shared/logs/server';
import type { McpLogRecord, McpLogStore } from '@sluice/shared/mcp';
import type { MethodDeps } from '@sluice/shared/mcp/gateway';
import { createRedisSessionStore } from '@sluice/shared/mcp/gateway';
import {
  createMachineTokens,
  type MachineTokens,
  targetForMachine,
  targetForUser,
} from '@sluice/shared/mcp/oauth';
import { designatedHeaders, toMcpServerTarget } from '@sluice/shared/mcp/registry';
import {
  createSdkConnector,
  createUpstreamListCache,
  generationAwareConnector,
} from '@sluice/shared/mcp/upstream';
import type { MetricsStore } from '@sluice/shared/metrics';
import { createDropReporter, guardrailSamples } from '@sluice/shared/metrics';
import { CACHE_VERSION_KEYS, createBatchingLedgerWriter } from '@sluice/shared/runtime';
import { createSecretBox, type SecretBox } from '@sluice/shared/secrets';
import { type Background, detached } from '@sluice/shared/util';
import type { StoreLink } from './store-link';

/**
 * The global fetch for ports that call it as a method (`deps.fetch(…)`): workerd refuses fetch
 * called with another `this` ("Illegal invocation").
 */
const fetchAnywhere: typeof fetch = (input, init) => fetch(input, init);

/** Upstream MCP calls get longer than a store call: tools may run a while. */
const MCP_UPSTREAM_TIMEOUT_MS = 60_000;

/**
 * Upstream list results kept as their caching hints say, in the isolate and in Redis, under the
 * MCP registry's version as the isolate last read it (none kept while it is unknown).
 */
function upstreamListCache(
  link: StoreLink,
  warn: (message: string, fields?: Record<string, unknown>) => void,
) {
  return createUpstreamListCache({
    store: {
      mget: (keys) => link.redis.mget(...keys),
      set: async (key, value, ttlMs) => {
        await link.redis.set(key, value, { px: ttlMs });
      },
    },
    version: () => {
      const mcp = link.board.expected().find((part) => part.key === CACHE_VERSION_KEYS.mcp);
      return mcp && mcp.expected !== '*' ? mcp.expected : null;
    },
    onVersionChange: (listener) => link.board.part('mcp').onChange(listener),
    onError: (error) => warn('MCP list cache unavailable', { error: String(error) }),
  });
}

/** The /mcp endpoint's ports, built once per isolate. */
export function buildMcpDeps(
  config: StoreEnv,
  { link, db }: { link: StoreLink; db: QueryDb },
  warm: WarmCaches,
  callLogStore: McpLogStore,
  metrics: MetricsStore,
  log: Logger,
): MethodDeps {
  const warn = (message: string, fields: Record<string, unknown> = {}) => log.warn(message, fields);
  let secretBox: Promise<SecretBox> | undefined;
  // Tokens of the servers Sluice signs in to as itself: held for the isolate's life.
  let machineTokens: MachineTokens | undefined;
  const consoleUrl = config.SLUICE_CONSOLE_URL?.replace(/\/+$/, '') ?? null;
  const drops = createDropReporter(metrics, 'mcp', warn);
  const callLog = createBatchingLedgerWriter<McpLogRecord>(callLogStore, {
    onError: (error, records) =>
      warn('MCP call log write failed', { error: String(error), records: records.length }),
    onDrop: drops.onDrop,
  });
  // /mcp makes no admission round trip: it reads the cache versions itself, at most once a second.
  const fresh = async <T>(read: (background: Background) => Promise<T>) => {
    await link.board.refresh();
    return read(detached);
  };
  const settings = () => fresh((background) => warm.settings(background));
  const listCache = upstreamListCache(link, warn);
  // Tool limits come with the caller's other limit definitions (one cache, one load); a call
  // no limit covers costs no Redis round trip.
  const toolGate = createToolGate({
    run: (call) => link.scripts.run(call),
    limitsOf: (subject) => fresh((background) => warm.limits(subject, background)),
    warn,
  });
  return {
    sessions: createRedisSessionStore(
      link.redis,
      async () => (await settings()).mcp_session_idle_seconds * 1000,
    ),
    toolAccess: async () => (await settings()).mcp_tool_access,
    toolSearch: async () => {
      const values = await settings();
      return { mode: values.mcp_tool_search, pinned: values.mcp_pinned_tools };
    },
    toolPolicy: async () => toolPolicyOf((await settings()).inspect_tools),
    redaction: async () => redactPolicyOf((await settings()).redact),
    onToolBlocked: (rule) => void metrics.record(guardrailSamples('inspect_tools', rule)),
    toolLimits: async ({ subject, tool }) =>
      toolGate.admit({
        subject,
        tool,
        nowMs: Date.now(),
        failClosed: (await settings()).rate_limit_fail_closed,
      }),
    catalog: () => fresh((background) => warm.mcpCatalog(background)),
    connector: generationAwareConnector(createSdkConnector({ validateToolOutput: false }), { listCache }),
    listCache,
    targetOf: async (server: McpServerRow, userId: string) => {
      const paramHeadersOf = async (row: McpServerRow) => {
        const { tools } = await warm.mcpCatalog(detached);
        const own = new Map(
          tools
            .filter((t) => t.server.id === row.id)
            .map((t) => [t.tool.name, designatedHeaders(t.tool.inputSchema)]),
        );
        return (tool: string) => own.get(tool) ?? [];
      };
      secretBox ??= createSecretBox(config.SLUICE_ENCRYPTION_KEY);
      const secrets = await secretBox;
      machineTokens ??= createMachineTokens({
        kv: link.redis,
        secrets,
        fetch: fetchAnywhere,
        now: () => new Date(),
      });
      const target = {
        ...(await toMcpServerTarget(server, secrets)),
        paramHeaders: await paramHeadersOf(server),
      };
      const upstreamOAuth = {
        store: upstreamOAuthStore(db, secrets),
        kv: link.redis,
        fetch: fetchAnywhere,
        // The gateway only uses and refreshes tokens; connecting happens in the console.
        callbackUrl: '',
        clientMetadataUrl: null,
        now: () => new Date(),
      };
      return targetForUser(await targetForMachine(target, machineTokens), userId, upstreamOAuth, consoleUrl);
    },
    logCall: (record, keepAlive) => callLog.write(record, keepAlive),
    timeoutMs: MCP_UPSTREAM_TIMEOUT_MS,
    warn,
  };
}
