/**
 * The platform bench's stack: `npm run serve`'s entry (launchBenchStack) on the seeded Postgres
 * database, a Redis database flushed at each start (so every key, model and catalog starts cold
 * in Redis as in the gateway's isolate) and, when ClickHouse answers, a log database of the
 * same name emptied at each start (the console's log views then hold this run's requests only).
 * Its secrets are fixed, so a reused seed's sealed provider credentials still open.
 */
import { join } from 'node:path';
import { answers, clickhouseQuery } from './bench-stores';
import { RedisProbe } from './redis-stats';
import { type LaunchedStack, launchBenchStack } from './stack-launch';
import { type StackSnapshot, stackReader } from './stack-processes';

const SECRETS = {
  SLUICE_JWT_SECRET: 'platform-bench-jwt-secret-0123456789abcdef',
  SLUICE_ENCRYPTION_KEY: '5a'.repeat(32),
};

export interface PlatformStackOptions {
  databaseUrl: string;
  redisUrl: string;
  clickhouseUrl: string;
  gatewayProcesses: number;
  resultsDir: string;
}

export async function startPlatformStack(options: PlatformStackOptions): Promise<LaunchedStack> {
  const redis = await RedisProbe.open(options.redisUrl);
  try {
    await redis.flushDb();
  } finally {
    redis.close();
  }
  const database = new URL(options.databaseUrl).pathname.slice(1);
  const clickhouse = (await answers(options.clickhouseUrl)) ? options.clickhouseUrl : null;
  if (clickhouse) await clickhouseQuery(clickhouse, `DROP DATABASE IF EXISTS ${database}`);
  return launchBenchStack({
    mode: 'serve',
    cpus: null,
    storesEnv: {
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      ...(clickhouse ? { CLICKHOUSE_URL: clickhouse, CLICKHOUSE_DATABASE: database } : {}),
    },
    logFile: join(options.resultsDir, 'stack.log'),
    extraEnv: { ...SECRETS, SLUICE_GATEWAY_PROCESSES: String(options.gatewayProcesses) },
  });
}

/** Each process of the stack with its resident memory, in MiB, at two moments. */
export function memoryRows(before: StackSnapshot, after: StackSnapshot): string[][] {
  const rows = [['process', 'pid', 'RSS after warm-up MiB', 'RSS after the runs MiB']];
  const pids = [...new Set([...before.keys(), ...after.keys()])];
  for (const pid of pids) {
    const p = after.get(pid) ?? before.get(pid)!;
    const mib = (s: StackSnapshot) => {
      const kb = s.get(pid)?.rssKb;
      return kb === undefined ? '-' : (kb / 1024).toFixed(0);
    };
    const role = p.role === 'bridge' ? 'supervisor + store bridge' : p.role;
    rows.push([`${role} (${p.comm})`, String(pid), mib(before), mib(after)]);
  }
  return rows;
}

export const snapshotOf = (stack: LaunchedStack) => stackReader(stack.supervisor);
