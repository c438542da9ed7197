/**
 * The knobs of `npm run bench:peers`, all environment variables (the run's name may also be the
 * first argument). Defaults are the full run: three interleaved rounds of 5 s per target, mode
 * and phase, about six minutes with four targets.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { number, OptionsError } from '../dev/bench/options';

export const TARGETS = ['direct', 'nginx', 'workerd', 'workerd-store', 'portkey', 'sluice'] as const;
/** The floors of a gateway on workerd (bench/floor) run only when named in TARGETS. */
const DEFAULT_TARGETS = ['direct', 'nginx', 'portkey', 'sluice'] as const;
export type Target = (typeof TARGETS)[number];
export const MODES = ['json', 'stream'] as const;
export type Mode = (typeof MODES)[number];

export interface PeerOptions {
  name: string;
  resultsDir: string;
  targets: Target[];
  /** Targets of the fixed-rate phase (a subset of `targets`). */
  latencyTargets: Target[];
  modes: Mode[];
  rounds: number;
  /** Closed loop: seconds per run, connections. */
  seconds: number;
  connections: number;
  warmupSeconds: number;
  /** Fixed rate: requests per second, seconds per run, the most connections the generator opens. */
  rate: number;
  rateSeconds: number;
  rateConnections: number;
  /** Pause after each run before the CPU counters are read (work a target does after answering). */
  settleMs: number;
  /** null: nothing pinned. */
  loadCpus: string | null;
  sutCpus: string | null;
  /** Passed on to `npm run serve` as SLUICE_GATEWAY_PROCESSES; null: serve's own default. */
  gatewayProcesses: string | null;
  databaseUrl: string;
  redisUrl: string;
  clickhouseUrl: string | null;
}

export const HELP = `npm run bench:peers [-- NAME]: Sluice side by side with nginx and Portkey 1.15.2.

Starts a fake OpenAI upstream (nginx), nginx as a proxy (the floor of one hop), Portkey (bench/peers,
installed on the first run) and Sluice (npm run serve's entry on spare ports, real Postgres and Redis,
ClickHouse when it answers), loads them in interleaved rounds and writes bench/results/NAME/.

  NAME / BENCH_NAME   results folder under bench/results (default: the date and time)
  TARGETS             direct nginx portkey sluice (default: these four); also workerd (a bare
                      Worker forwarding to the upstream: the runtime's own floor) and
                      workerd-store (the same after one Redis round trip through a Durable
                      Object, as Sluice's admission makes it)
  LAT_TARGETS         targets of the fixed-rate phase (default: the same)
  MODES               json stream (default: both)
  ROUNDS              3: interleaved rounds, the first target rotating each round
  DURATION            5: seconds of each closed-loop run (wrk), CONNS (32) connections
  WARMUP              3: seconds of unrecorded load per target and mode before round 1
  LAT_RATE            200: requests per second of the fixed-rate phase (open loop, Node), for
  LAT_DURATION        5 seconds each, over at most LAT_CONNS (32) connections
  SETTLE_MS           500: pause after each run before CPU time is read
  PIN                 1: wrk, the fake upstream and this runner on LOAD_CPU (0), the system under
                      test on SUT_CPU (1; a list such as 1-3 for several); 0: nothing pinned
  SLUICE_GATEWAY_PROCESSES  passed on to npm run serve (workerd processes of the gateway)
  BENCH_DATABASE_URL  postgres://postgres@127.0.0.1:5432/sluice_bench_peers (dropped at start)
  BENCH_REDIS_URL     redis://127.0.0.1:6379/10 (flushed at start)
  BENCH_CLICKHOUSE_URL http://127.0.0.1:8123 (request log there when it answers; none: Postgres)
Needs nginx and wrk (Debian: apt-get install nginx-light wrk), Postgres, Redis, Linux.`;

function list<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  known: readonly T[],
  fallback: T[],
): T[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const items = raw.split(/[\s,]+/).filter(Boolean);
  for (const item of items) {
    if (!(known as readonly string[]).includes(item))
      throw new OptionsError(`${name}: unknown "${item}" (${known.join(', ')})`);
  }
  return [...new Set(items)] as T[];
}

export function peerOptions(env: NodeJS.ProcessEnv, argv: string[], benchDir: string): PeerOptions {
  const name = argv.find((arg) => !arg.startsWith('-')) ?? env.BENCH_NAME ?? stamp(new Date());
  if (!/^[\w.-]+$/.test(name) || name === '.' || name === '..')
    throw new OptionsError(`the run's name "${name}" must be letters, digits, ".", "_" or "-"`);
  const targets = list(env, 'TARGETS', TARGETS, [...DEFAULT_TARGETS]);
  const latencyTargets = list(env, 'LAT_TARGETS', TARGETS, targets).filter((t) => targets.includes(t));
  const pin = env.PIN !== '0' && availableParallelism() >= 2;
  const clickhouse = env.BENCH_CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';
  return {
    name,
    resultsDir: join(benchDir, 'results', name),
    targets,
    latencyTargets,
    modes: list(env, 'MODES', MODES, [...MODES]),
    rounds: number(env, 'ROUNDS', 3),
    seconds: number(env, 'DURATION', 5),
    connections: number(env, 'CONNS', 32),
    warmupSeconds: number(env, 'WARMUP', 3, 0),
    rate: number(env, 'LAT_RATE', 200),
    rateSeconds: number(env, 'LAT_DURATION', 5),
    rateConnections: number(env, 'LAT_CONNS', 32),
    settleMs: number(env, 'SETTLE_MS', 500, 0),
    loadCpus: pin ? (env.LOAD_CPU ?? '0') : null,
    sutCpus: pin ? (env.SUT_CPU ?? '1') : null,
    gatewayProcesses: env.SLUICE_GATEWAY_PROCESSES?.trim() || null,
    databaseUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sluice_bench_peers',
    redisUrl: env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/10',
    clickhouseUrl: clickhouse === 'none' ? null : clickhouse,
  };
}

function stamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-').slice(0, 19);
}
