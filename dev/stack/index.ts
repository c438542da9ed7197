import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { appEnvironment } from '../../self-host/app-env';
import { localUrl, stackBanner } from '../../self-host/banner';
import { bridgeLimitsFromEnv } from '../../self-host/bridge/limits';
import { type StoreBridge, startStoreBridge } from '../../self-host/bridge/server';
import { ensureUiBuild } from '../../self-host/build/ui-build';
import { buildGatewayWorker } from '../../self-host/build/worker-build';
import type { Child } from '../../self-host/process/children';
import { spawnConsole } from '../../self-host/process/console-process';
import { waitForHttp } from '../../self-host/process/ports';
import { firstExit, readyUnlessExited, type SupervisedStack } from '../../self-host/process/supervise';
import { loadOrCreateSecrets } from '../../self-host/secrets';
import { type MiniflareGateway, startMiniflareGateway } from './miniflare-gateway';
import { resolveStores } from './stores';

export interface StackOptions {
  gatewayPort: number;
  consolePort: number;
  sidecarPort: number;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  quiet: boolean;
}

export interface RunningStack extends SupervisedStack {
  gatewayUrl: string;
  consoleUrl: string;
}

/** `npm start` is local: the gateway binds loopback; the console too unless SLUICE_CONSOLE_HOST says otherwise. */
const HOST = '127.0.0.1';

export function stackOptionsFromEnv(env: NodeJS.ProcessEnv): StackOptions {
  return {
    gatewayPort: Number(env.SLUICE_GATEWAY_PORT ?? 3000),
    consolePort: Number(env.SLUICE_CONSOLE_PORT ?? 3001),
    sidecarPort: Number(env.SLUICE_SIDECAR_PORT ?? 0),
    dataDir: resolve(env.SLUICE_DATA_DIR ?? '.sluice'),
    env,
    quiet: env.SLUICE_QUIET === '1',
  };
}

/**
 * `npm start`: stores (embedded unless configured) → migrations → store bridge → the gateway
 * on Miniflare (in this process) and the console (a child); stops in reverse. The worker
 * bundle and the web UI are built while the stores come up.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = (line: string) => {
    if (!options.quiet) console.log(line);
  };
  const building = Promise.all([buildGatewayWorker(join(options.dataDir, 'gateway')), ensureUiBuild(log)]);
  // Awaited below; until then a failed build must not count as an unhandled rejection.
  building.catch(() => {});
  const stores = await resolveStores(options.env, options.dataDir).catch(async (error: unknown) => {
    await building.catch(() => {});
    throw error;
  });
  const children: Child[] = [];
  let bridge: StoreBridge | undefined;
  let gateway: MiniflareGateway | undefined;
  const stop = async (): Promise<void> => {
    await Promise.all([...children.map((child) => child.stop()), gateway?.stop()]);
    await bridge?.close();
    await stores.close();
  };
  try {
    bridge = await startStoreBridge({
      port: options.sidecarPort,
      pgTarget: stores.pgTarget,
      redis: stores.redis,
      redisToken: randomBytes(24).toString('base64url'),
      limits: bridgeLimitsFromEnv(options.env),
    });
    const [build] = await building;
    const env = appEnvironment({
      stores,
      bridge,
      secrets: loadOrCreateSecrets(options.dataDir, options.env),
      env: options.env,
    });
    const consoleHost = options.env.SLUICE_CONSOLE_HOST ?? HOST;
    children.push(spawnConsole({ port: options.consolePort, host: consoleHost, env, quiet: options.quiet }));
    const failure = firstExit(children);
    gateway = await startMiniflareGateway({
      build,
      bindings: env,
      host: HOST,
      port: options.gatewayPort,
      quiet: options.quiet,
    });
    const gatewayUrl = localUrl(HOST, options.gatewayPort);
    const consoleUrl = localUrl(consoleHost, options.consolePort);
    await readyUnlessExited(
      Promise.all([
        waitForHttp(`${gatewayUrl}/health/ready`, 90_000),
        waitForHttp(`${consoleUrl}/api/health`, 60_000),
      ]),
      failure,
    );
    const banner = stackBanner({
      gatewayUrl,
      consoleUrl,
      gatewayRuntime: `Miniflare, ${build.settings.compatibilityDate}`,
      stores: stores.describe,
      bridgePort: bridge.port,
    });
    return { gatewayUrl, consoleUrl, banner, stop, failure };
  } catch (error) {
    await stop();
    throw error;
  }
}
