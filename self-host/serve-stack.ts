import type { ServeOptions } from './serve-options';
import { type RunningStack, startStack } from './stack';
import { realPostgres, realRedis } from './stores/real-stores';
import { prepareStores } from './stores/stores';
import { startWorkerd } from './workerd/workerd-process';

/**
 * `npm run serve`: the shared stack sequence on real stores, with the gateway on
 * `workerd serve` as a child process.
 */
export function startServe(options: ServeOptions): Promise<RunningStack> {
  return startStack({
    dataDir: options.dataDir,
    env: options.env,
    quiet: options.quiet,
    bridgePort: options.bridgePort,
    openStores: async () =>
      prepareStores(
        await realPostgres(options.databaseUrl),
        () => realRedis(options.redisUrl, options.env),
        options.env,
      ),
    console: { host: options.consoleHost, port: options.consolePort },
    gateway: {
      host: options.host,
      port: options.gatewayPort,
      runtime: {
        name: 'workerd serve',
        start: async (build, bindings) => {
          const child = startWorkerd({
            build,
            bindings,
            host: options.host,
            port: options.gatewayPort,
            outboundAllow: options.outboundAllow,
            quiet: options.quiet,
          });
          return { child, stop: () => child.stop() };
        },
      },
    },
  });
}
