/**
 * Everything a bench run stands on, set up in order and registered for cleanup: the stores
 * emptied, the fake upstream, the stack (pinned, on spare ports), its configuration, one
 * checked request of each kind, and the probes that read counters around each run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../self-host/process/ports';
import { workerdBinary } from '../../self-host/workerd/workerd-process';
import { type BenchStores, resetStores } from './bench-stores';
import { onCleanup } from './cleanup';
import { type BenchSetup, configureStack } from './configure';
import { type CpuPlan, cpuPlan, pinSelf } from './cpus';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream';
import type { Probes } from './measure-run';
import type { BenchOptions } from './options';
import { preflight } from './preflight';
import { RedisProbe } from './redis-stats';
import { type LaunchedStack, launchBenchStack } from './stack-launch';
import { stackReader } from './stack-processes';
import type { Tools } from './tools';

export interface Session {
  options: BenchOptions;
  plan: CpuPlan;
  stores: BenchStores;
  upstream: FakeUpstream;
  stack: LaunchedStack;
  setup: BenchSetup;
  probes: Probes;
  /** The worker wrangler built for the stack (dataDir/gateway). */
  buildDir: string;
  versions: string;
  notes: string[];
}

const say = (line: string) => console.log(`bench: ${line}`);

export async function openSession(options: BenchOptions, tools: Tools): Promise<Session> {
  mkdirSync(options.resultsDir, { recursive: true });
  const plan = cpuPlan(process.env);
  pinSelf(plan.load);
  say(`results in ${options.resultsDir}; ${plan.note}`);
  const stores = await resetStores(options);
  say(
    `stores emptied: ${stores.databaseUrl}, ${stores.redisUrl}${stores.clickhouse ? `, ClickHouse ${stores.clickhouse.url}` : ''}`,
  );
  const upstream = await startFakeUpstream({
    nginx: tools.nginx,
    port: await freePort(),
    runDir: options.resultsDir,
    cpus: plan.load,
  });
  const logFile = join(options.resultsDir, 'stack.log');
  say(`starting the stack (${options.mode === 'serve' ? 'npm run serve' : 'npm start'}), log in ${logFile}`);
  const stack = await launchBenchStack({
    mode: options.mode,
    cpus: plan.stack,
    storesEnv: stores.env,
    logFile,
  });
  const setup = await configureStack(stack.consoleUrl, upstream.url);
  const notes = await preflight(stack.gatewayUrl, setup.apiKey, upstream);
  say(`stack configured and checked: gateway ${stack.gatewayUrl}, console ${stack.consoleUrl}`);
  const redis = await RedisProbe.open(options.redisUrl);
  onCleanup(() => redis.close());
  return {
    options,
    plan,
    stores,
    upstream,
    stack,
    setup,
    probes: {
      readStack: stackReader(stack.supervisor),
      redis,
      bridge: stack.bridge,
      redisPort: Number(new URL(options.redisUrl).port || 6379),
      settleMs: options.settleMs,
    },
    buildDir: join(stack.dataDir, 'gateway'),
    versions: versions(tools, await redis.version()),
    notes,
  };
}

function versions(tools: Tools, redis: string): string {
  // Both streams, whatever the status: nginx -v prints to stderr, wrk -v exits 1 after printing.
  const output = (command: string, args: string[]) => {
    const run = spawnSync(command, args, { encoding: 'utf8' });
    return `${run.stdout ?? ''}${run.stderr ?? ''}`;
  };
  const nginx = /nginx\/(\S+)/.exec(output(tools.nginx, ['-v']))?.[1] ?? '?';
  const wrk = /wrk (\S+)/.exec(output(tools.wrk, ['-v']))?.[1] ?? '?';
  const workerd = /workerd (\S+)/.exec(output(workerdBinary(), ['--version']))?.[1] ?? '?';
  return `Node ${process.version}, workerd ${workerd}, Redis ${redis}, nginx ${nginx}, wrk ${wrk}`;
}
