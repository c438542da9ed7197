import { resolve } from 'node:path';
import { BOTH_APPS, type RunningStack, startStack as startSharedStack } from '../../self-host/stack';
import { startMiniflareGateway } from './miniflare-gateway';
import { resolveStores } from './stores';

export type { RunningStack } from '../../self-host/stack';

export interface StackOptions {
  gatewayPort: number;
  consolePort: number;
  sidecarPort: number;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  quiet: boolean;
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
 * `npm start`: the stack sequence `npm run serve` uses (self-host/stack.ts), on embedded stores
 * unless real ones are configured, with the gateway on Miniflare inside this process.
 */
export function startStack(options: StackOptions): Promise<RunningStack> {
  const { quiet } = options;
  return startSharedStack({
    dataDir: options.dataDir,
    env: options.env,
    quiet,
    bridgePort: options.sidecarPort,
    openStores: () => resolveStores(options.env, options.dataDir),
    console: { host: options.env.SLUICE_CONSOLE_HOST ?? HOST, port: options.consolePort },
    apps: BOTH_APPS,
    gateway: {
      host: HOST,
      port: options.gatewayPort,
      runtime: {
        name: 'Miniflare',
        start: (build, bindings) =>
          startMiniflareGateway({ build, bindings, host: HOST, port: options.gatewayPort, quiet }),
      },
    },
  });
}
