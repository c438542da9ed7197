import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ANALYTICS_LOG_BATCH } from '@sluice/shared/runtime';
import { appEnvironment, consoleEnvironment } from './app-env';
import { localUrl, stackBanner } from './banner';
import { bridgeLimitsFromEnv } from './bridge/limits';
import { type StoreBridge, startStoreBridge } from './bridge/server';
import { ensureUiBuild } from './build/ui-build';
import { buildGatewayWorker, type GatewayBuild } from './build/worker-build';
import type { Child } from './process/children';
import { spawnConsole } from './process/console-process';
import { waitForHttp } from './process/ports';
import { firstExit, readyUnlessExited, type SupervisedStack } from './process/supervise';
import { loadOrCreateSecrets } from './secrets';
import type { PreparedStores } from './stores/stores';

/** What runs the gateway bundle: `workerd serve` (npm run serve) or Miniflare (npm start). */
export interface GatewayRuntime {
  /** For the banner, e.g. "workerd serve". */
  name: string;
  start(build: GatewayBuild, bindings: Record<string, string>): Promise<StartedGateway>;
}

export interface StartedGateway {
  /**
   * Resolves when a process of the gateway's own exits during start-up, which fails the start
   * (as the console's exit does). Later exits are the runtime's to repair: `workerd serve`
   * restarts its processes, and one gateway process down must not take the stack down.
   */
  failure?: Promise<string>;
  /** Start-up is over: the stack answers. */
  running?(): void;
  /** The stack begins to stop (before the drain wait): nothing is restarted from now on. */
  stopping?(): void;
  /** How many processes serve the gateway, for the banner. */
  processes?: number;
  /** How they listen on its port, for the banner when there are several. */
  listening?: string;
  stop(): Promise<void>;
}

export interface StackPlan {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  quiet: boolean;
  /** 0 picks a free port. */
  bridgePort: number;
  gateway: { host: string; port: number; runtime: GatewayRuntime };
  console: { host: string; port: number };
  /** Which of the two apps this process runs (SLUICE_SERVE; `npm start` runs both). */
  apps: StackApps;
  openStores(): Promise<PreparedStores>;
}

export interface StackApps {
  gateway: boolean;
  console: boolean;
}

export const BOTH_APPS: StackApps = { gateway: true, console: true };

/**
 * How long a stopping stack leaves its gateway running: the request and MCP log rows of the
 * last requests wait in the gateway's batches for up to ANALYTICS_LOG_BATCH.maxDelayMs (2 s),
 * and neither workerd nor Miniflare lets them finish once told to stop.
 */
export const GATEWAY_DRAIN_MS = ANALYTICS_LOG_BATCH.maxDelayMs + 500;

export interface RunningStack extends SupervisedStack {
  /** Null when this process runs no gateway. */
  gatewayUrl: string | null;
  /** Null when this process runs no console. */
  consoleUrl: string | null;
}

/**
 * The sequence `npm start` and `npm run serve` share: stores (migrated) → store bridge (in this
 * process, when an app needs it) → the gateway on its runtime and the console (a child), then the
 * banner once both answer. The worker bundle and the web UI are built while the stores come up. Stops in reverse.
 */
export async function startStack(plan: StackPlan): Promise<RunningStack> {
  const log = (line: string) => {
    if (!plan.quiet) console.log(line);
  };
  const { apps } = plan;
  const building = Promise.all([
    apps.gateway ? buildGatewayWorker(join(plan.dataDir, 'gateway')) : null,
    apps.console ? ensureUiBuild(log) : null,
  ]);
  // Awaited below; until then a failed build must not count as an unhandled rejection.
  building.catch(() => {});
  const stores = await plan.openStores().catch(async (error: unknown) => {
    await building.catch(() => {});
    throw error;
  });
  const children: Child[] = [];
  let bridge: StoreBridge | undefined;
  let gateway: StartedGateway | undefined;
  const stop = async (): Promise<void> => {
    gateway?.stopping?.();
    if (gateway) await new Promise((resolve) => setTimeout(resolve, GATEWAY_DRAIN_MS));
    await Promise.all([gateway?.stop(), ...children.map((child) => child.stop())]);
    await bridge?.close();
    await stores.close();
  };
  try {
    // The bridge is for the gateway (a Worker speaks HTTP) and for a console on the embedded
    // Redis, which lives in this process; a console on real stores reaches them itself.
    if (apps.gateway || stores.redisUrl === null) {
      bridge = await startStoreBridge({
        port: plan.bridgePort,
        pgTarget: stores.pgTarget,
        redis: stores.redis,
        redisToken: randomBytes(24).toString('base64url'),
        limits: bridgeLimitsFromEnv(plan.env),
      });
    }
    const [build] = await building;
    const env = appEnvironment({
      stores,
      bridge: bridge ?? null,
      secrets: loadOrCreateSecrets(plan.dataDir, plan.env),
      env: plan.env,
      gatewayHost: plan.gateway.host,
      // Where this stack's apps answer: the OAuth issuer and resource URLs of /mcp, unless set.
      publicUrls: {
        console: apps.console ? localUrl(plan.console.host, plan.console.port) : null,
        gateway: apps.gateway ? localUrl(plan.gateway.host, plan.gateway.port) : null,
      },
      ports: { gateway: plan.gateway.port, console: plan.console.port },
    });
    // The console first: it takes the longest to boot, and the gateway starts meanwhile.
    if (apps.console) {
      children.push(
        spawnConsole({ ...plan.console, env: consoleEnvironment(env, stores), quiet: plan.quiet }),
      );
    }
    if (build) {
      gateway = await plan.gateway.runtime.start(build, env);
    }
    const gatewayUrl = build ? localUrl(plan.gateway.host, plan.gateway.port) : null;
    const consoleUrl = apps.console ? localUrl(plan.console.host, plan.console.port) : null;
    const failure = Promise.race([firstExit(children), ...(gateway?.failure ? [gateway.failure] : [])]);
    await readyUnlessExited(
      Promise.all([
        gatewayUrl && waitForHttp(`${gatewayUrl}/health/ready`, 90_000),
        consoleUrl && waitForHttp(`${consoleUrl}/api/health`, 60_000),
      ]),
      failure,
    );
    gateway?.running?.();
    const banner = stackBanner({
      gatewayUrl,
      consoleUrl,
      gatewayRuntime: build ? gatewayRuntimeText(plan.gateway.runtime.name, build, gateway) : '',
      stores: stores.describe,
      bridgePort: bridge?.port ?? null,
      initialized: consoleUrl ? await setupDone(consoleUrl) : null,
    });
    return { gatewayUrl, consoleUrl, banner, stop, failure };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * "workerd serve, 2026-04-01, 2 processes on a listening socket each (SO_REUSEPORT)": the
 * runtime, its compatibility date, its processes and how they share the port.
 */
function gatewayRuntimeText(name: string, build: GatewayBuild, gateway: StartedGateway | undefined): string {
  const processes = gateway?.processes;
  const count = processes === undefined ? '' : `, ${processes} ${processes === 1 ? 'process' : 'processes'}`;
  const listening =
    processes !== undefined && processes > 1 && gateway?.listening ? ` on ${gateway.listening}` : '';
  return `${name}, ${build.settings.compatibilityDate}${count}${listening}`;
}

/** Whether the console has its first admin, for the banner; null when it cannot tell. */
async function setupDone(consoleUrl: string): Promise<boolean | null> {
  try {
    const response = await fetch(`${consoleUrl}/api/setup/status`, { signal: AbortSignal.timeout(5_000) });
    const status = (await response.json()) as { initialized?: unknown };
    return typeof status.initialized === 'boolean' ? status.initialized : null;
  } catch {
    return null;
  }
}
