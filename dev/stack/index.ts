import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { startStoreBridge } from '../../self-host/bridge/server';
import { waitForHttp } from './ports';
import type { Child } from './processes';
import { spawnConsole, spawnGateway } from './processes';
import { loadOrCreateSecrets } from './secrets';
import { resolveStores } from './stores';
import { ensureUiBuild } from './ui-build';

export interface StackOptions {
  gatewayPort: number;
  consolePort: number;
  sidecarPort: number;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  quiet: boolean;
}

export interface RunningStack {
  gatewayUrl: string;
  consoleUrl: string;
  banner: string;
  stop(): Promise<void>;
}

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

/** Stores → migrations → sidecar → gateway (wrangler dev) and console; stops in reverse. */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  await ensureUiBuild((line) => {
    if (!options.quiet) console.log(line);
  });
  const stores = await resolveStores(options.env, options.dataDir);
  const children: Child[] = [];
  const sidecar = await startStoreBridge({
    port: options.sidecarPort,
    pgTarget: stores.pgTarget,
    redis: stores.redis,
    redisToken: randomBytes(24).toString('base64url'),
  }).catch(async (error: unknown) => {
    await stores.close();
    throw error;
  });
  const stop = async () => {
    await Promise.all(children.map((c) => c.stop()));
    await sidecar.close();
    await stores.close();
  };
  try {
    const appEnv: Record<string, string> = {
      DATABASE_URL: stores.databaseUrl,
      ...sidecar.env,
      ...loadOrCreateSecrets(options.dataDir, options.env),
      ...(stores.clickhouse ? definedOnly(stores.clickhouse) : {}),
    };
    const runDir = join(options.dataDir, 'run');
    children.push(
      await spawnGateway({ port: options.gatewayPort, vars: appEnv, runDir, quiet: options.quiet }),
    );
    children.push(spawnConsole({ port: options.consolePort, env: appEnv, quiet: options.quiet }));
    const gatewayUrl = `http://127.0.0.1:${options.gatewayPort}`;
    const consoleUrl = `http://127.0.0.1:${options.consolePort}`;
    await Promise.all([
      waitForHttp(`${gatewayUrl}/health/ready`, 90_000),
      waitForHttp(`${consoleUrl}/api/health`, 60_000),
    ]);
    const banner = [
      'Sluice is running',
      `  gateway: ${gatewayUrl}   (model API under /v1, readiness at /health/ready)`,
      `  web UI:  ${consoleUrl}/   (open in a browser; the first visit runs the setup wizard)`,
      `  console: ${consoleUrl}   (management API under /api; start at /api/setup/status)`,
      ...stores.describe.map((line) => `  ${line}`),
      `  sidecar: 127.0.0.1:${sidecar.port} (Neon and Upstash protocols for local drivers)`,
    ].join('\n');
    return { gatewayUrl, consoleUrl, banner, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function definedOnly(values: object): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
