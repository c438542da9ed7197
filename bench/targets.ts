/**
 * The four systems loaded side by side, each started as a process tree of its own (pinned to the
 * system-under-test CPU, except the fake upstream, which sits beside the load generator) and
 * stopped by the cleanup registry:
 *
 *   direct   the fake upstream itself (nginx answering fixed bodies): the rig's ceiling
 *   nginx    nginx proxying to it with kept-alive upstream connections: one hop at the least
 *   portkey  @portkey-ai/gateway 1.15.2 (bench/peers), routed by its headers to the fake upstream
 *   sluice   `npm run serve`'s entry on spare ports, real stores, configured through the console
 *
 * Every target answers the same fixed bodies from the same upstream; the request bodies are the
 * same bytes (their model names matter to Sluice only, whose models bench-json and bench-stream
 * route to the upstream's JSON and SSE paths).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchStores, resetStores } from '../dev/bench/bench-stores';
import { onCleanup } from '../dev/bench/cleanup';
import { configureStack } from '../dev/bench/configure';
import { pinned } from '../dev/bench/cpus';
import type { FakeUpstream } from '../dev/bench/fake-upstream';
import { PAYLOADS } from '../dev/bench/payloads';
import { preflight as sluicePreflight } from '../dev/bench/preflight';
import { processTree, readStat } from '../dev/bench/proc';
import { establishedBy } from '../dev/bench/proc-sockets';
import { stopProcessGroup } from '../dev/bench/process-group';
import { launchBenchStack } from '../dev/bench/stack-launch';
import { stackReader } from '../dev/bench/stack-processes';
import { freePort, waitForHttp } from '../self-host/process/ports';
import type { PeerRequest } from './load/request';
import type { Mode, PeerOptions, Target } from './options';

const BENCH_DIR = import.meta.dirname;
const PEERS_DIR = join(BENCH_DIR, 'peers');
const PORTKEY_ENTRY = join(PEERS_DIR, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');

/** CPU ticks (utime + stime) of each process of a target's tree, by the part it plays. */
export type CpuSnapshot = Map<number, { part: string; ticks: number }>;

export interface RunningTarget {
  name: Target;
  request: Record<Mode, PeerRequest>;
  readCpu: () => CpuSnapshot;
  /** The established connections of each gateway process, fewest first (Sluice, several processes). */
  connectionsByProcess?: () => number[];
  /** A line for the report: what exactly ran. */
  describe: string;
}

/** Every process of the tree under `root` counted as one part, `all`. */
export function treeCpu(root: number): () => CpuSnapshot {
  return () => {
    const snapshot: CpuSnapshot = new Map();
    for (const pid of processTree(root)) {
      const stat = readStat(pid);
      if (stat) snapshot.set(pid, { part: 'all', ticks: stat.cpuTicks });
    }
    return snapshot;
  };
}

export function requests(
  base: string,
  headers: (mode: Mode) => Record<string, string>,
  path: (mode: Mode) => string,
): Record<Mode, PeerRequest> {
  const one = (mode: Mode): PeerRequest => ({
    url: `${base}${path(mode)}`,
    headers: headers(mode),
    bodyFile: PAYLOADS[mode],
    stream: mode === 'stream',
  });
  return { json: one('json'), stream: one('stream') };
}

/** The fake upstream's paths: JSON on /v1, the stream on /sse/v1. */
export const upstreamPath = (mode: Mode) =>
  mode === 'stream' ? '/sse/v1/chat/completions' : '/v1/chat/completions';
export const BEARER = { authorization: 'Bearer sk-bench' };

export function directTarget(upstream: FakeUpstream): RunningTarget {
  return {
    name: 'direct',
    request: requests(upstream.url, () => BEARER, upstreamPath),
    readCpu: treeCpu(upstream.pid),
    describe: `direct: the fake upstream (nginx, pid ${upstream.pid}) on the load CPU`,
  };
}

export async function nginxTarget(
  nginx: string,
  upstream: FakeUpstream,
  runDir: string,
  cpus: string | null,
): Promise<RunningTarget> {
  const dir = join(runDir, 'proxy');
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const port = await freePort();
  const config = join(dir, 'nginx.conf');
  const template = readFileSync(join(BENCH_DIR, 'proxy.conf.in'), 'utf8');
  writeFileSync(
    config,
    template.replaceAll('@PORT@', String(port)).replaceAll('@UPSTREAM@', new URL(upstream.url).port),
  );
  const [command, args] = pinned(cpus, nginx, ['-p', `${dir}/`, '-c', config, '-e', join(dir, 'error.log')]);
  const child = spawn(command, args, { detached: true, stdio: 'ignore' });
  onCleanup(() => stopProcessGroup(child, 5_000));
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health`, 10_000).catch((error: unknown) => {
    throw new Error(`the nginx proxy did not start (see ${join(dir, 'error.log')}): ${String(error)}`);
  });
  return {
    name: 'nginx',
    request: requests(url, () => BEARER, upstreamPath),
    readCpu: treeCpu(child.pid!),
    describe: `nginx: proxy_pass with a keep-alive pool, unbuffered on the stream path (pid ${child.pid})`,
  };
}

/**
 * Portkey's package lives in bench/peers, outside the workspaces (a root `npm ci` does not
 * install it): installed here from its lock on the first run.
 */
export function ensurePortkey(say: (line: string) => void): void {
  if (existsSync(PORTKEY_ENTRY)) return;
  say('Portkey is not installed yet: npm ci --prefix bench/peers');
  const npm = spawnSync('npm', ['ci', '--prefix', PEERS_DIR, '--no-audit', '--no-fund'], {
    stdio: 'inherit',
  });
  if (npm.status !== 0 || !existsSync(PORTKEY_ENTRY)) {
    throw new Error('installing Portkey failed: run `npm ci --prefix bench/peers` and look at its output');
  }
}

function peerVersion(name: string): string {
  try {
    const manifest = join(PEERS_DIR, 'node_modules', name, 'package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

export async function portkeyTarget(
  upstream: FakeUpstream,
  runDir: string,
  cpus: string | null,
): Promise<RunningTarget> {
  const port = await freePort();
  const logFile = join(runDir, 'portkey.log');
  const log = openSync(logFile, 'a');
  // node itself (not npx), so the pid is the gateway's; --headless leaves out the UI's routes.
  const [command, args] = pinned(cpus, process.execPath, [PORTKEY_ENTRY, `--port=${port}`, '--headless']);
  const child: ChildProcess = spawn(command, args, {
    cwd: PEERS_DIR,
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  onCleanup(() => stopProcessGroup(child, 5_000));
  const url = `http://127.0.0.1:${port}`;
  // Any answer means it listens (its root path is not a 200 when headless).
  await waitForHttp(url, 60_000, () => true).catch((error: unknown) => {
    throw new Error(`Portkey did not start (see ${logFile}): ${String(error)}`);
  });
  // Portkey's routing: an OpenAI-type provider at a custom host, the base URL with its /v1
  // (Portkey appends /chat/completions); the Authorization header is passed on upstream.
  const headers = (mode: Mode) => ({
    ...BEARER,
    'x-portkey-provider': 'openai',
    'x-portkey-custom-host': `${upstream.url}${mode === 'stream' ? '/sse/v1' : '/v1'}`,
  });
  return {
    name: 'portkey',
    request: requests(url, headers, () => '/v1/chat/completions'),
    readCpu: treeCpu(child.pid!),
    describe:
      `portkey: @portkey-ai/gateway ${peerVersion('@portkey-ai/gateway')} with @hono/node-server ` +
      `${peerVersion('@hono/node-server')}, node build/start-server.js --headless (pid ${child.pid})`,
  };
}

/**
 * Sluice as a self-hoster runs it: `npm run serve`'s entry (node --import tsx self-host/serve.ts,
 * without npm's own process in between) in a process group of its own, on emptied stores of the
 * bench's own, configured through the console API as dev/bench/configure.ts does (limits on the
 * key and its owner's role, request logging on, response cache off). SLUICE_GATEWAY_PROCESSES is
 * passed on as given.
 */
export async function sluiceTarget(
  options: PeerOptions,
  upstream: FakeUpstream,
  say: (line: string) => void,
): Promise<RunningTarget & { stores: BenchStores }> {
  const stores = await resetStores(options);
  say(
    `stores emptied: ${stores.databaseUrl}, ${stores.redisUrl}` +
      `${stores.clickhouse ? `, ClickHouse ${stores.clickhouse.url} (${stores.clickhouse.database})` : ', request log in Postgres'}`,
  );
  const logFile = join(options.resultsDir, 'sluice.log');
  say(`starting Sluice (npm run serve's entry), log in ${logFile}`);
  const stack = await launchBenchStack({
    mode: 'serve',
    cpus: options.sutCpus,
    storesEnv: stores.env,
    logFile,
    extraEnv: options.gatewayProcesses ? { SLUICE_GATEWAY_PROCESSES: options.gatewayProcesses } : {},
  });
  const setup = await configureStack(stack.consoleUrl, upstream.url);
  const notes = await sluicePreflight(stack.gatewayUrl, setup.apiKey, upstream);
  for (const note of notes) say(`sluice: ${note}`);
  const roles = stackReader(stack.supervisor);
  const readCpu = (): CpuSnapshot => {
    const snapshot: CpuSnapshot = new Map();
    for (const process of roles().values())
      snapshot.set(process.pid, { part: process.role, ticks: process.cpuTicks });
    return snapshot;
  };
  const gatewayPids = () =>
    [...roles().values()].filter((process) => process.role === 'gateway').map((process) => process.pid);
  const workerds = gatewayPids().length;
  const gatewayPort = Number(new URL(stack.gatewayUrl).port);
  return {
    name: 'sluice',
    request: requests(
      stack.gatewayUrl,
      () => ({ authorization: `Bearer ${setup.apiKey}` }),
      () => '/v1/chat/completions',
    ),
    readCpu,
    connectionsByProcess:
      workerds > 1
        ? () => [...establishedBy(gatewayPids(), gatewayPort).values()].sort((a, b) => a - b)
        : undefined,
    describe:
      `sluice: npm run serve (supervisor pid ${stack.supervisor}, ${workerds} workerd process${workerds === 1 ? '' : 'es'}` +
      `${options.gatewayProcesses ? `, SLUICE_GATEWAY_PROCESSES=${options.gatewayProcesses}` : ''}), ` +
      `request log in ${stores.clickhouse ? 'ClickHouse' : 'Postgres'}`,
    stores,
  };
}

/**
 * One request of each mode to a target before any load: 200, a chat.completion with usage, or a
 * stream of events ending with its usage chunk and `data: [DONE]`. A wrong answer stops the run.
 */
export async function checkTarget(target: RunningTarget, modes: Mode[]): Promise<void> {
  for (const mode of modes) {
    const request = target.request[mode];
    const res = await fetch(request.url, {
      method: 'POST',
      headers: { ...request.headers, 'content-type': 'application/json' },
      body: readFileSync(request.bodyFile),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const wrong = (why: string) =>
      new Error(`${target.name} ${mode}: ${why}: HTTP ${res.status} ${text.slice(0, 400)}`);
    if (res.status !== 200) throw wrong('not a 200');
    if (mode === 'json') {
      const body = JSON.parse(text) as { object?: string; usage?: unknown };
      if (body.object !== 'chat.completion' || !body.usage) throw wrong('no chat.completion with usage');
    } else {
      const events = text.split('\n\n').filter((event) => event.trim().length > 0);
      if (events.length < 3 || events.at(-1)?.trim() !== 'data: [DONE]' || !text.includes('"usage":{'))
        throw wrong('no stream ending with usage and [DONE]');
    }
  }
}
