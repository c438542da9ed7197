/**
 * `npm run bench` options, all from BENCH_* variables (and `--soak`). Defaults follow the team
 * benchmark: 32 connections, 5 s runs, 200 req/s for the fixed rate.
 */
import { join, resolve } from 'node:path';
import { type LoadMode, MODES } from './payloads';
import type { StackMode } from './stack-launch';

export interface BenchOptions {
  mode: StackMode;
  modes: LoadMode[];
  connections: number;
  seconds: number;
  warmupSeconds: number;
  rate: number;
  rateSeconds: number;
  settleMs: number;
  isolateRuns: number;
  /** null: no soak (the full report); otherwise its length in seconds. */
  soakSeconds: number | null;
  /** null: half the maximum measured first. */
  soakRate: number | null;
  databaseUrl: string;
  redisUrl: string;
  /** null: request log in Postgres even when ClickHouse answers. */
  clickhouseUrl: string | null;
  resultsDir: string;
}

export const HELP = `npm run bench [-- --soak]: starts the stack on spare ports and prints its performance.

  BENCH_MODE           serve (default: npm run serve's stack, workerd serve) or start (npm start's, Miniflare)
  BENCH_MODES          json,stream (default): which requests to measure
  BENCH_CONNECTIONS    32: wrk connections, closed loop and fixed rate
  BENCH_SECONDS        5: seconds of the saturation run (BENCH_WARMUP: 3 s of warm-up before it)
  BENCH_RATE           200: requests per second of the fixed-rate run, for BENCH_RATE_SECONDS (5)
  BENCH_SETTLE_MS      1000: wait after each run before the counters are read (write-behind work)
  BENCH_ISOLATE_RUNS   5: fresh workerd starts for the start-up figures (0: skip them)
  BENCH_SOAK           seconds of soak (--soak alone: 600): json at a fixed rate, per-minute figures
  BENCH_SOAK_RATE      soak rate (default: half the maximum measured first)
  BENCH_DATABASE_URL   postgres://postgres@127.0.0.1:5432/sluice_bench_npm (dropped at start)
  BENCH_REDIS_URL      redis://127.0.0.1:6379/8 (this database flushed at start)
  BENCH_CLICKHOUSE_URL http://127.0.0.1:8123 (request log there when it answers; "none": Postgres)
  BENCH_RESULTS_DIR    .sluice/bench/<date-time> (results.json, the stack's log, nginx's files)
  BENCH_PIN            1: wrk + fake upstream on CPU BENCH_LOAD_CPU (0), the stack on BENCH_STACK_CPU (1)
Before and after the runs, a machine check on the stack's CPU (a system call's cost, a fixed JS task warm
and after the fixed rate's idle gap): compare reports, and machines, by it.
Needs nginx and wrk (Debian: apt-get install nginx-light wrk), Postgres, Redis, Linux.`;

export class OptionsError extends Error {}

/** A number from the environment, at least `min`; the fallback when unset. */
export function number(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min)
    throw new OptionsError(`${name} must be a number ≥ ${min} (got "${raw}")`);
  return value;
}

export function benchOptions(env: NodeJS.ProcessEnv, argv: string[], now = new Date()): BenchOptions {
  const mode = env.BENCH_MODE ?? 'serve';
  if (mode !== 'serve' && mode !== 'start')
    throw new OptionsError(`BENCH_MODE must be serve or start (got "${mode}")`);
  const modes = (env.BENCH_MODES ?? MODES.join(',')).split(',').map((m) => m.trim());
  for (const m of modes) {
    if (!(MODES as readonly string[]).includes(m))
      throw new OptionsError(`BENCH_MODES: unknown "${m}" (json, stream)`);
  }
  const soakAsked = argv.includes('--soak') || (env.BENCH_SOAK !== undefined && env.BENCH_SOAK !== '');
  const stamp = now.toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const clickhouse = env.BENCH_CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';
  return {
    mode,
    modes: modes as LoadMode[],
    connections: number(env, 'BENCH_CONNECTIONS', 32),
    seconds: number(env, 'BENCH_SECONDS', 5),
    warmupSeconds: number(env, 'BENCH_WARMUP', 3, 0),
    rate: number(env, 'BENCH_RATE', 200),
    rateSeconds: number(env, 'BENCH_RATE_SECONDS', 5),
    settleMs: number(env, 'BENCH_SETTLE_MS', 1000, 0),
    isolateRuns: number(env, 'BENCH_ISOLATE_RUNS', 5, 0),
    soakSeconds: soakAsked ? number(env, 'BENCH_SOAK', 600, 10) : null,
    soakRate: env.BENCH_SOAK_RATE ? number(env, 'BENCH_SOAK_RATE', 0) : null,
    databaseUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sluice_bench_npm',
    redisUrl: env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/8',
    clickhouseUrl: clickhouse === 'none' ? null : clickhouse,
    resultsDir: resolve(env.BENCH_RESULTS_DIR ?? join('.sluice', 'bench', stamp)),
  };
}
