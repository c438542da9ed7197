/**
 * Starts the stack the way its users do, as a process of its own pinned to the stack's core:
 * `npm run serve`'s entry (self-host/serve.ts: workerd serve, the store bridge in the
 * supervisor, the console) by default, or `npm start`'s (dev/start.ts: the gateway on
 * Miniflare) with BENCH_MODE=start. Its own process group, so a stop reaches everything it
 * started; its output goes to a log file in the results directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForHttp } from '../../self-host/process/ports';
import type { BridgeAccess } from './bridge-counts';
import { onCleanup } from './cleanup';
import { pinned } from './cpus';
import { readEnviron } from './proc';
import { stopProcessGroup } from './process-group';
import { type ProcessRole, stackReader } from './stack-processes';

const ROOT = join(import.meta.dirname, '..', '..');
export type StackMode = 'serve' | 'start';

const ENTRY: Record<StackMode, string> = {
  serve: 'self-host/serve.ts',
  start: 'dev/start.ts',
};

export interface StackLaunch {
  mode: StackMode;
  cpus: string | null;
  /** Stores, ports, data directory: the stack's environment on top of the bench's own. */
  env: Record<string, string>;
  gatewayPort: number;
  consolePort: number;
  logFile: string;
}

export interface LaunchedStack {
  supervisor: number;
  gatewayUrl: string;
  consoleUrl: string;
  /** The bridge's Upstash endpoint and token, read from the console's environment. */
  bridge: BridgeAccess;
  /** The apps' environment (stores, bridge endpoints, secrets), for a workerd of the bench's own. */
  appEnv: Record<string, string>;
  stop(): Promise<void>;
}

export async function launchStack(launch: StackLaunch): Promise<LaunchedStack> {
  const log = openSync(launch.logFile, 'a');
  const [command, args] = pinned(launch.cpus, process.execPath, ['--import', 'tsx', ENTRY[launch.mode]]);
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...launch.env, SLUICE_QUIET: '1', FORCE_COLOR: '0' },
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const stop = () => stopProcessGroup(child, 20_000);
  onCleanup(stop);
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) =>
      reject(
        new Error(`the stack exited during start-up (${signal ?? `code ${code}`}); see ${launch.logFile}`),
      ),
    );
  });
  exited.catch(() => {});
  const gatewayUrl = `http://127.0.0.1:${launch.gatewayPort}`;
  const consoleUrl = `http://127.0.0.1:${launch.consolePort}`;
  await Promise.race([
    Promise.all([
      waitForHttp(`${gatewayUrl}/health/ready`, 240_000),
      waitForHttp(`${consoleUrl}/api/health`, 240_000),
    ]),
    exited,
  ]);
  const supervisor = child.pid!;
  const consolePid = pidOf(supervisor, 'console');
  const appEnv = appEnvironment(readEnviron(consolePid));
  const bridge = { url: appEnv.UPSTASH_REDIS_REST_URL ?? '', token: appEnv.UPSTASH_REDIS_REST_TOKEN ?? '' };
  if (!bridge.url || !bridge.token)
    throw new Error('the console was started without the bridge’s Upstash settings');
  return { supervisor, gatewayUrl, consoleUrl, bridge, appEnv, stop };
}

function pidOf(supervisor: number, role: ProcessRole): number {
  const found = [...stackReader(supervisor)().values()].find((process) => process.role === role);
  if (!found) throw new Error(`no ${role} process under the stack's supervisor (${supervisor})`);
  return found.pid;
}

/**
 * What the stack hands both apps (self-host/app-env.ts): the stores, the bridge's endpoints,
 * the secrets and the apps' SLUICE_* settings. The console's environment holds them all, next
 * to the variables it inherited, which are left out.
 */
export function appEnvironment(consoleEnv: Record<string, string>): Record<string, string> {
  const wanted = /^(DATABASE_URL$|NEON_LOCAL_|UPSTASH_REDIS_REST_|CLICKHOUSE_|SLUICE_)/;
  const supervisorOnly =
    /^SLUICE_(CONSOLE_|GATEWAY_PORT|SIDECAR_PORT|DATA_DIR|QUIET|HOST|OUTBOUND_ALLOW|BRIDGE_)/;
  return Object.fromEntries(
    Object.entries(consoleEnv).filter(([name]) => wanted.test(name) && !supervisorOnly.test(name)),
  );
}

/** A stack on the bench's emptied stores: spare ports, a data directory removed at the end. */
export interface BenchStackLaunch {
  mode: StackMode;
  cpus: string | null;
  /** The emptied stores' environment (resetStores). */
  storesEnv: Record<string, string>;
  logFile: string;
  /** More environment (SLUICE_GATEWAY_PROCESSES…). */
  extraEnv?: Record<string, string>;
}

export async function launchBenchStack(
  launch: BenchStackLaunch,
): Promise<LaunchedStack & { dataDir: string }> {
  const [gatewayPort, consolePort, bridgePort] = await Promise.all([freePort(), freePort(), freePort()]);
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
  onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  const stack = await launchStack({
    mode: launch.mode,
    cpus: launch.cpus,
    env: {
      ...launch.storesEnv,
      // Empty unless this run uses ClickHouse: one set in the caller's environment must not leak in.
      CLICKHOUSE_URL: launch.storesEnv.CLICKHOUSE_URL ?? '',
      SLUICE_GATEWAY_PORT: String(gatewayPort),
      SLUICE_CONSOLE_PORT: String(consolePort),
      SLUICE_SIDECAR_PORT: String(bridgePort),
      SLUICE_DATA_DIR: dataDir,
      ...launch.extraEnv,
    },
    gatewayPort,
    consolePort,
    logFile: launch.logFile,
  });
  return { ...stack, dataDir };
}
