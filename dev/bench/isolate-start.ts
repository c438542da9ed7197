/**
 * Isolate start-up: a fresh `workerd serve` on the built worker (the bundle serve runs, with a
 * config from self-host/workerd/workerd-config.ts and the running stack's bindings) and on an
 * empty worker with the same compatibility settings, each started BENCH_ISOLATE_RUNS times:
 * time to listening (config read, worker compiled, its top level run), to the first answered
 * /health, and the first model request on the cold isolate against a warm one. One more start
 * with workerd's Perfetto tracing gives the bundle's compile time from workerd's own slices.
 * The bundle's size is what the edge would get: every module wrangler wrote, raw and gzip.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { listModules, type WorkerModule } from '../../self-host/build/worker-build';
import type { WorkerSettings } from '../../self-host/build/worker-settings';
import { freePort } from '../../self-host/process/ports';
import { workerdConfig } from '../../self-host/workerd/workerd-config';
import { median } from './median';
import { PAYLOADS } from './payloads';
import { sliceDurations } from './perfetto-trace';
import { startProbe, timedRequest } from './workerd-probe';

export interface BundleSize {
  modules: number;
  bytes: number;
  gzipBytes: number;
}

export interface StartTimes {
  listenMs: number;
  firstAnswerMs: number;
  /** The first /health's own latency (lazy compilation of the code it runs). */
  firstRequestMs: number;
}

export interface IsolateFigures {
  bundle: BundleSize;
  runs: number;
  gateway: StartTimes & { firstModelRequestMs: number; warmModelRequestMs: number };
  emptyWorker: StartTimes;
  /** From workerd's trace slices; null when the trace could not be read (the reason in traceNote). */
  trace: { compileModulesMs: number; makeWorkerMs: number; startServicesMs: number } | null;
  traceNote: string;
}

export interface IsolateInput {
  buildDir: string;
  settings: WorkerSettings;
  /** The running stack's app environment: the fresh gateway uses the same stores and bridge. */
  appEnv: Record<string, string>;
  apiKey: string;
  cpus: string | null;
  runs: number;
  workDir: string;
}

export function bundleSize(modules: WorkerModule[]): BundleSize {
  let bytes = 0;
  let gzipBytes = 0;
  for (const module of modules) {
    const content = readFileSync(module.path);
    bytes += statSync(module.path).size;
    gzipBytes += gzipSync(content).length;
  }
  return { modules: modules.length, bytes, gzipBytes };
}

async function writeConfig(
  path: string,
  settings: WorkerSettings,
  modules: WorkerModule[],
  dir: string,
  bindings: string[],
): Promise<number> {
  const port = await freePort();
  const config = workerdConfig({
    settings,
    modules,
    configDirectory: dir,
    environmentBindings: bindings,
    address: `127.0.0.1:${port}`,
    outboundAllow: ['public', 'local'],
    // Start-up is parse and instantiation; the first requests take the bridge's path here.
    redisLink: false,
  });
  writeFileSync(path, config, { mode: 0o600 });
  return port;
}

export async function measureIsolateStart(input: IsolateInput): Promise<IsolateFigures> {
  const modules = listModules(input.buildDir, input.settings.main);
  const bindings = Object.keys(input.appEnv).sort();
  const gatewayConfig = join(input.buildDir, 'bench-probe.capnp');
  const emptyDir = join(input.workDir, 'empty-worker');
  mkdirSync(emptyDir, { recursive: true });
  writeFileSync(join(emptyDir, 'worker.js'), "export default { fetch() { return new Response('ok'); } };\n");
  const emptyConfig = join(emptyDir, 'config.capnp');
  const emptyModules: WorkerModule[] = [
    { name: 'worker.js', type: 'esModule', path: join(emptyDir, 'worker.js') },
  ];
  const gateway: Array<IsolateFigures['gateway']> = [];
  const empty: StartTimes[] = [];
  for (let run = 0; run < input.runs; run++) {
    await writeConfig(emptyConfig, { ...input.settings, vars: {} }, emptyModules, emptyDir, []);
    empty.push(await startOnce(emptyConfig, {}, input.cpus));
    await writeConfig(gatewayConfig, input.settings, modules, input.buildDir, bindings);
    gateway.push(await startGatewayOnce(gatewayConfig, input));
  }
  const traced = await traceOnce(gatewayConfig, input, modules, bindings);
  rmSync(gatewayConfig, { force: true });
  const pick = <T extends object>(list: T[], key: keyof T) => median(list.map((item) => Number(item[key])));
  return {
    bundle: bundleSize(modules),
    runs: input.runs,
    gateway: {
      listenMs: pick(gateway, 'listenMs'),
      firstAnswerMs: pick(gateway, 'firstAnswerMs'),
      firstRequestMs: pick(gateway, 'firstRequestMs'),
      firstModelRequestMs: pick(gateway, 'firstModelRequestMs'),
      warmModelRequestMs: pick(gateway, 'warmModelRequestMs'),
    },
    emptyWorker: {
      listenMs: pick(empty, 'listenMs'),
      firstAnswerMs: pick(empty, 'firstAnswerMs'),
      firstRequestMs: pick(empty, 'firstRequestMs'),
    },
    ...traced,
  };
}

async function startOnce(
  config: string,
  env: Record<string, string>,
  cpus: string | null,
): Promise<StartTimes> {
  const probe = await startProbe({ configPath: config, env, cpus });
  try {
    const first = await timedRequest(probe.port, '/health');
    if (first.status !== 200)
      throw new Error(`fresh workerd answered /health with ${first.status}: ${first.body}`);
    return { listenMs: probe.listenMs, firstAnswerMs: probe.sinceSpawn(), firstRequestMs: first.ms };
  } finally {
    await probe.stop();
  }
}

async function startGatewayOnce(config: string, input: IsolateInput): Promise<IsolateFigures['gateway']> {
  const probe = await startProbe({ configPath: config, env: input.appEnv, cpus: input.cpus });
  try {
    const first = await timedRequest(probe.port, '/health');
    const firstAnswerMs = probe.sinceSpawn();
    const chat = () =>
      timedRequest(probe.port, '/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${input.apiKey}`, 'content-type': 'application/json' },
        body: readFileSync(PAYLOADS.json),
      });
    const cold = await chat();
    if (cold.status !== 200)
      throw new Error(`fresh gateway answered a chat request with ${cold.status}: ${cold.body}`);
    const warm = await chat();
    return {
      listenMs: probe.listenMs,
      firstAnswerMs,
      firstRequestMs: first.ms,
      firstModelRequestMs: cold.ms,
      warmModelRequestMs: warm.ms,
    };
  } finally {
    await probe.stop();
  }
}

/** One start with `--perfetto-trace`; the trace is written when workerd stops. */
async function traceOnce(
  config: string,
  input: IsolateInput,
  modules: WorkerModule[],
  bindings: string[],
): Promise<Pick<IsolateFigures, 'trace' | 'traceNote'>> {
  const file = join(input.workDir, 'workerd-start.pftrace');
  try {
    await writeConfig(config, input.settings, modules, input.buildDir, bindings);
    const probe = await startProbe({
      configPath: config,
      env: input.appEnv,
      cpus: input.cpus,
      extraArgs: [`--perfetto-trace=${file}=workerd`],
    });
    await timedRequest(probe.port, '/health');
    await probe.stop();
    const slices = sliceDurations(readFileSync(file));
    const first = (name: string) => slices.get(name)?.[0];
    const compile = first('WorkerdApi::compileModules()');
    const make = first('Server::makeWorker()');
    const services = first('startServices');
    if (compile === undefined || make === undefined || services === undefined) {
      return { trace: null, traceNote: 'workerd’s trace had no compileModules/makeWorker slices' };
    }
    return {
      trace: { compileModulesMs: compile, makeWorkerMs: make, startServicesMs: services },
      traceNote: 'one traced start (workerd --perfetto-trace, category workerd)',
    };
  } catch (error) {
    return { trace: null, traceNote: `no trace: ${error instanceof Error ? error.message : String(error)}` };
  }
}
