/**
 * `npm run bench:scale` options: which suites run (--suite analytics, platform or all) and
 * each suite's own. Read once from the command line; a bad value stops the bench with the
 * usage before anything is seeded.
 */
import { parseArgs } from 'node:util';
import * as z from 'zod';
import type { PlatformSizes } from './platform-seed';

export const SCALE_HELP = `npm run bench:scale [-- options]: the console and gateway on a platform's worth of data.

  --suite S            analytics, platform or all (default): which suites run, in that order
  --runs N             runs of each case, interleaved (analytics 10, platform 20)
  --reseed             drop the suites' databases and seed them again
  --only TEXT          only the cases whose name contains TEXT

analytics (ClickHouse database --database, default sluice_bench_scale):
  --rows N (20000000)  request-log rows, over --days (30); N/10 MCP-log rows
  --timeout-ms (30000) the stores' deadline; --deadline-ms (2000) the "over" column's

platform (Postgres database --platform-database, default sluice_bench_platform; Redis db 13):
  --keys N (100000)    API keys, --owner-keys (2001) of them one user's
  --users N (2000)     users; --models N (1000) with --routes (5) routes each; --tools N (1000)
  --gateway-processes N (1) workerd processes (SLUICE_GATEWAY_PROCESSES)
  --skip-small         no comparison stack with 2 models`;

const count = z.coerce.number().int().positive();
const schema = z.object({
  suite: z.enum(['analytics', 'platform', 'all']).default('all'),
  runs: count.optional(),
  reseed: z.boolean().default(false),
  only: z.string().min(1).optional(),
  rows: count.default(20_000_000),
  days: count.default(30),
  database: z.string().default('sluice_bench_scale'),
  'timeout-ms': count.default(30_000),
  'deadline-ms': count.default(2_000),
  keys: count.default(100_000),
  'owner-keys': count.default(2_001),
  users: count.min(3).default(2_000),
  models: count.min(2).default(1_000),
  routes: count.max(32).default(5),
  tools: count.default(1_000),
  'platform-database': z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'a lowercase Postgres name')
    .default('sluice_bench_platform'),
  'gateway-processes': count.default(1),
  'skip-small': z.boolean().default(false),
});

export interface AnalyticsOptions {
  rows: number;
  days: number;
  runs: number;
  database: string;
  reseed: boolean;
  only: string | undefined;
  timeoutMs: number;
  deadlineMs: number;
}

export interface PlatformOptions {
  runs: number;
  reseed: boolean;
  only: string | undefined;
  sizes: PlatformSizes;
  database: string;
  gatewayProcesses: number;
  small: boolean;
}

export interface ScaleOptions {
  suites: Array<'analytics' | 'platform'>;
  analytics: AnalyticsOptions;
  platform: PlatformOptions;
}

export function scaleOptions(argv: string[]): ScaleOptions {
  const strings = Object.fromEntries(
    Object.keys(schema.shape).map((name) => [
      name,
      { type: name === 'reseed' || name === 'skip-small' ? 'boolean' : 'string' },
    ]),
  ) as Record<string, { type: 'string' | 'boolean' }>;
  const { values } = parseArgs({ args: argv, options: strings });
  const parsed = schema.safeParse(values);
  if (!parsed.success)
    throw new Error(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
  const o = parsed.data;
  const sizes: PlatformSizes = {
    users: o.users,
    keys: o.keys,
    ownerKeys: o['owner-keys'],
    models: o.models,
    routesPerModel: o.routes,
    tools: o.tools,
  };
  const platformRuns = o.runs ?? 20;
  const suites: ScaleOptions['suites'] = o.suite === 'all' ? ['analytics', 'platform'] : [o.suite];
  // Every run takes an unused key and model (plus one each for the warm-up and the warm case).
  if (suites.includes('platform') && sizes.keys < sizes.ownerKeys + sizes.users + platformRuns + 2)
    throw new Error('--keys must cover the admin’s key, --owner-keys, one a user and a cold key a run');
  if (suites.includes('platform') && sizes.models < platformRuns + 2)
    throw new Error('--models must be at least --runs + 2');
  return {
    suites,
    analytics: {
      rows: o.rows,
      days: o.days,
      runs: o.runs ?? 10,
      database: o.database,
      reseed: o.reseed,
      only: o.only,
      timeoutMs: o['timeout-ms'],
      deadlineMs: o['deadline-ms'],
    },
    platform: {
      runs: platformRuns,
      reseed: o.reseed,
      only: o.only,
      sizes,
      database: o['platform-database'],
      gatewayProcesses: o['gateway-processes'],
      small: !o['skip-small'],
    },
  };
}
