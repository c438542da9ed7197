import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../self-host/process/ports';
import { recreateDatabase } from '../helpers/databases';
import { CLICKHOUSE_URL, E2E_REDIS_URL, pgUrl } from '../helpers/env';
import { FIRST_ADMIN } from '../helpers/first-run';
import { http } from '../helpers/http';

const ROOT = join(import.meta.dirname, '../..');

/** How a stack is started: `npm start`'s entry by default. */
export interface StackCommand {
  file: string;
  args: string[];
  /** In a process group of its own (as `setsid` would), so the test can signal the group. */
  detached?: boolean;
}

export const NPM_START: StackCommand = {
  file: process.execPath,
  args: ['--import', 'tsx', join(ROOT, 'dev/start.ts')],
};

export interface StartedStack {
  gatewayUrl: string;
  consoleUrl: string;
  child: ChildProcess;
  output: () => string;
}

/**
 * Starts the stack exactly as `npm start` does (the same entry, a child process), or with
 * another command such as `npm run serve`, on free ports, and waits for its banner. Extra env
 * selects real or embedded stores.
 */
export async function startStackProcess(
  env: Record<string, string>,
  dataDir: string,
  command: StackCommand = NPM_START,
): Promise<StartedStack> {
  const [gatewayPort, consolePort] = [await freePort(), await freePort()];
  let output = '';
  const child = spawn(command.file, command.args, {
    cwd: ROOT,
    detached: command.detached ?? false,
    env: {
      ...stripStoreEnv(process.env),
      // One gateway process unless a test asks for more (serve's default is one per core):
      // what a test sees of the gateway's own connections (the Redis link, pooled sockets)
      // is then the same on any machine, and a suite's stacks do not multiply on a big one.
      SLUICE_GATEWAY_PROCESSES: '1',
      ...env,
      SLUICE_GATEWAY_PORT: String(gatewayPort),
      SLUICE_CONSOLE_PORT: String(consolePort),
      SLUICE_DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (d: Buffer) => {
    output += d.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stack did not start in time:\n${output}`)), 150_000);
    const check = setInterval(() => {
      if (output.includes('Sluice is running')) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`stack exited with ${code}:\n${output}`));
    });
  });
  return {
    gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
    consoleUrl: `http://127.0.0.1:${consolePort}`,
    child,
    output: () => output,
  };
}

/**
 * SIGTERM to a stack started in its own process group (`detached`), as the benchmark stops it;
 * resolves once it has exited. Nothing to do for one already gone (or never started).
 */
export async function stopStackGroup(stack: StartedStack | undefined): Promise<void> {
  if (!stack || stack.child.exitCode !== null || stack.child.signalCode !== null) return;
  const exited = new Promise((resolve) => stack.child.once('exit', resolve));
  try {
    process.kill(-stack.child.pid!, 'SIGTERM');
  } catch {
    return; // gone
  }
  await exited;
}

/** Ctrl-C, as a user would; resolves with the exit code. */
export function interrupt(stack: StartedStack): Promise<number | null> {
  return new Promise((resolve) => {
    if (stack.child.exitCode !== null) return resolve(stack.child.exitCode);
    const force = setTimeout(() => stack.child.kill('SIGKILL'), 20_000);
    stack.child.once('exit', (code) => {
      clearTimeout(force);
      resolve(code);
    });
    stack.child.kill('SIGINT');
  });
}

export function stripStoreEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && !/^(DATABASE_URL|REDIS_URL|CLICKHOUSE_|UPSTASH_|NEON_LOCAL_|SLUICE_)/.test(k))
      copy[k] = v;
  }
  return copy;
}

/**
 * Sets the stack up with the suite's admin (FIRST_ADMIN), as the setup wizard would, so that
 * every e2e file signs in as it whatever order the files run in.
 */
async function initializeWithSuiteAdmin(consoleUrl: string): Promise<void> {
  const init = await http('POST', `${consoleUrl}/api/setup/initialize`, { body: { admin: FIRST_ADMIN } });
  if (init.status !== 200)
    throw new Error(`e2e setup: initialize answered ${init.status}: ${JSON.stringify(init.body)}`);
}

/**
 * The real-store stack the e2e files share, set up with the suite's admin. Files that need a
 * stack of another kind (a first run on an empty one, embedded stores, `npm run serve`, a store
 * outage) start their own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseUrl = pgUrl('sluice_e2e');
  await recreateDatabase(databaseUrl);
  const redis = new Redis(E2E_REDIS_URL);
  await redis.flushdb();
  redis.disconnect();
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-e2e-'));
  const stack = await startStackProcess(
    {
      DATABASE_URL: databaseUrl,
      REDIS_URL: E2E_REDIS_URL,
      CLICKHOUSE_URL,
      CLICKHOUSE_DATABASE: 'sluice_e2e',
      // A row that went to the Postgres spill (a ClickHouse insert slow under CI's load) reaches
      // ClickHouse within the tests' waits.
      SLUICE_SPILL_DRAIN_INTERVAL_MS: '1000',
      // workerd now and then never tells the worker that a client left mid-stream; the idle
      // guard then ends the exchange (proxy/idle-guard.ts), within the tests' waits.
      SLUICE_UPSTREAM_IDLE_TIMEOUT_MS: '5000',
    },
    dataDir,
  );
  await initializeWithSuiteAdmin(stack.consoleUrl);
  project.provide('stack', { gatewayUrl: stack.gatewayUrl, consoleUrl: stack.consoleUrl });
  return async () => {
    await interrupt(stack);
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: { gatewayUrl: string; consoleUrl: string };
  }
}
