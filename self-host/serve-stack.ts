import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { appEnvironment } from './app-env';
import { localUrl, stackBanner } from './banner';
import { bridgeLimitsFromEnv } from './bridge/limits';
import { type StoreBridge, startStoreBridge } from './bridge/server';
import { ensureUiBuild } from './build/ui-build';
import { buildGatewayWorker } from './build/worker-build';
import type { Child } from './process/children';
import { spawnConsole } from './process/console-process';
import { waitForHttp } from './process/ports';
import { firstExit, readyUnlessExited, type SupervisedStack } from './process/supervise';
import { loadOrCreateSecrets } from './secrets';
import type { ServeOptions } from './serve-options';
import { realPostgres, realRedis } from './stores/real-stores';
import { prepareStores } from './stores/stores';
import { startWorkerd } from './workerd/workerd-process';

/**
 * `npm run serve`: real stores (migrated) → store bridge (in this process) → the gateway on
 * `workerd serve` and the console on Node, as children. The worker bundle and the web UI are
 * built while the stores are prepared. Stops in reverse order.
 */
export async function startServe(options: ServeOptions): Promise<SupervisedStack> {
  const log = (line: string) => {
    if (!options.quiet) console.log(line);
  };
  const building = Promise.all([buildGatewayWorker(join(options.dataDir, 'gateway')), ensureUiBuild(log)]);
  // Awaited below; until then a failed build must not count as an unhandled rejection.
  building.catch(() => {});
  const stores = await prepareStores(
    await realPostgres(options.databaseUrl),
    () => realRedis(options.redisUrl),
    options.env,
  ).catch(async (error: unknown) => {
    await building.catch(() => {});
    throw error;
  });
  const children: Child[] = [];
  let bridge: StoreBridge | undefined;
  const stop = async (): Promise<void> => {
    await Promise.all(children.map((child) => child.stop()));
    await bridge?.close();
    await stores.close();
  };
  try {
    bridge = await startStoreBridge({
      port: options.bridgePort,
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
    children.push(
      startWorkerd({
        build,
        bindings: env,
        host: options.host,
        port: options.gatewayPort,
        outboundAllow: options.outboundAllow,
        quiet: options.quiet,
      }),
      spawnConsole({ port: options.consolePort, host: options.consoleHost, env, quiet: options.quiet }),
    );
    const gatewayUrl = localUrl(options.host, options.gatewayPort);
    const consoleUrl = localUrl(options.consoleHost, options.consolePort);
    const failure = firstExit(children);
    await readyUnlessExited(
      Promise.all([
        waitForHttp(`${gatewayUrl}/health/ready`, 60_000),
        waitForHttp(`${consoleUrl}/api/health`, 60_000),
      ]),
      failure,
    );
    const banner = stackBanner({
      gatewayUrl,
      consoleUrl,
      gatewayRuntime: `workerd serve, ${build.settings.compatibilityDate}`,
      stores: stores.describe,
      bridgePort: bridge.port,
    });
    return { banner, stop, failure };
  } catch (error) {
    await stop();
    throw error;
  }
}
