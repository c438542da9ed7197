import type { StoreBridge } from './bridge/server';
import type { StackSecrets } from './secrets';
import type { PreparedStores } from './stores/stores';

/** The supervisor's own settings (and every SLUICE_BRIDGE_*): they shape the stack, not the apps. */
const SUPERVISOR_ONLY = new Set([
  'SLUICE_GATEWAY_PORT',
  'SLUICE_CONSOLE_PORT',
  'SLUICE_SIDECAR_PORT',
  'SLUICE_DATA_DIR',
  'SLUICE_QUIET',
  'SLUICE_HOST',
  'SLUICE_OUTBOUND_ALLOW',
  'SLUICE_GATEWAY_PROCESSES',
]);

export interface AppEnvironmentInput {
  stores: PreparedStores;
  /** Null when this process runs no bridge (a console alone on real stores). */
  bridge: Pick<StoreBridge, 'env'> | null;
  secrets: StackSecrets;
  /** The supervisor's environment: its app-level SLUICE_* and OTEL_* settings are passed on. */
  env: NodeJS.ProcessEnv;
  /** The address the gateway listens on. */
  gatewayHost: string;
  /** This stack's console and gateway URLs; null for an app it does not run. */
  publicUrls?: { console: string | null; gateway: string | null };
  /** The ports the gateway and the console listen on: what their access logs record. */
  ports?: { gateway: number; console: number };
}

/** Names a browser on this machine uses for a loopback listener. */
const LOOPBACK_NAMES = 'localhost,127.0.0.1,[::1]';

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The console's environment: the apps' one, and REDIS_URL when the stack runs on a real Redis,
 * which the console then reaches itself over TCP (it takes REDIS_URL over the bridge's Upstash
 * endpoint). The embedded store lives in the supervisor: the console reaches it through the bridge.
 */
export function consoleEnvironment(
  appEnv: Record<string, string>,
  stores: Pick<PreparedStores, 'redisUrl'>,
): Record<string, string> {
  return stores.redisUrl ? { ...appEnv, REDIS_URL: stores.redisUrl } : appEnv;
}

/**
 * What both apps are given (worker bindings for the gateway, process env for the console):
 * the app-level `SLUICE_*` settings from the supervisor's environment (log level, store
 * timeout, metrics key...), the ports both listen on, then the database URL, the bridge's Neon and Upstash endpoints,
 * the secrets and the ClickHouse settings, which always win.
 */
export function appEnvironment(input: AppEnvironmentInput): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.env)) {
    // OpenTelemetry's standard variables configure both apps' trace export as they do any SDK's.
    if (value !== undefined && name.startsWith('OTEL_')) {
      passed[name] = value;
      continue;
    }
    if (value === undefined || !name.startsWith('SLUICE_')) continue;
    if (SUPERVISOR_ONLY.has(name) || name.startsWith('SLUICE_BRIDGE_')) continue;
    passed[name] = value;
  }
  // A gateway on a loopback address answers /mcp for the loopback names only, unless told
  // otherwise (DNS-rebinding protection, as the MCP SDK gives local servers).
  if (passed.SLUICE_MCP_ALLOWED_HOSTS === undefined && isLoopback(input.gatewayHost)) {
    passed.SLUICE_MCP_ALLOWED_HOSTS = LOOPBACK_NAMES;
  }
  if (passed.SLUICE_CONSOLE_URL === undefined && input.publicUrls?.console)
    passed.SLUICE_CONSOLE_URL = input.publicUrls.console;
  if (passed.SLUICE_GATEWAY_URL === undefined && input.publicUrls?.gateway)
    passed.SLUICE_GATEWAY_URL = input.publicUrls.gateway;
  // The supervisor's SLUICE_*_PORT were dropped above: the apps get the ports actually used.
  if (input.ports) {
    passed.SLUICE_GATEWAY_PORT = String(input.ports.gateway);
    passed.SLUICE_CONSOLE_PORT = String(input.ports.console);
  }
  return {
    ...passed,
    DATABASE_URL: input.stores.databaseUrl,
    ...input.bridge?.env,
    ...input.secrets,
    ...(input.stores.clickhouse ?? {}),
  };
}
