import type { ServeOptions } from './serve-options';
import { type RunningStack, startStack } from './stack';
import { realPostgres, realRedis } from './stores/real-stores';
import { prepareStores } from './stores/stores';
import { redisLinkAllow } from './workerd/redis-link-access';
import { startWorkerdGateway } from './workerd/workerd-gateway';

/**
 * `npm run serve`: the shared stack sequence on real stores, with the gateway on
 * `workerd serve` child processes (SLUICE_GATEWAY_PROCESSES of them) sharing one port.
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
    apps: options.apps,
    gateway: {
      host: options.host,
      port: options.gatewayPort,
      runtime: {
        name: 'workerd serve',
        start: async (build, bindings) => {
          // The link's socket is the Worker's own: its Redis gets into the outbound allow list.
          const link: { bindings: Record<string, string>; allow: string[] } = options.redisLink
            ? {
                bindings: { SLUICE_REDIS_LINK_URL: options.redisUrl },
                allow: await redisLinkAllow(options.redisUrl),
              }
            : { bindings: {}, allow: [] };
          return startWorkerdGateway({
            build,
            bindings: { ...bindings, ...link.bindings },
            host: options.host,
            port: options.gatewayPort,
            outboundAllow: [...options.outboundAllow, ...link.allow],
            redisLink: options.redisLink,
            quiet: options.quiet,
            processes: options.gatewayProcesses,
            sockets: options.gatewaySockets,
          });
        },
      },
    },
  });
}
