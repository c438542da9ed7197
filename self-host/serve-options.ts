import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import * as z from 'zod';
import type { SocketMode } from './process/port-sockets';
import type { StackApps } from './stack';

export interface ServeOptions {
  /** Address the gateway (and, unless SLUICE_CONSOLE_HOST says otherwise, the console) binds. */
  host: string;
  consoleHost: string;
  gatewayPort: number;
  consolePort: number;
  /** The store bridge's port on loopback; 0 picks a free one. */
  bridgePort: number;
  dataDir: string;
  quiet: boolean;
  databaseUrl: string;
  redisUrl: string;
  /** The gateway's global outbound `allow` list (workerd network names or CIDRs). */
  outboundAllow: string[];
  /**
   * The hot path's Redis round trips over the gateway's own RESP socket (true, the default)
   * or over HTTP through the store bridge (SLUICE_REDIS_LINK=bridge).
   */
  redisLink: boolean;
  /** SLUICE_SERVE: `both` (default), `gateway` or `console`, for N gateways and one console. */
  apps: StackApps;
  /**
   * How many `workerd serve` processes share the gateway's port (SLUICE_GATEWAY_PROCESSES):
   * one per core the supervisor may run on by default, as one workerd runs its requests on one
   * thread.
   */
  gatewayProcesses: number;
  /**
   * How the gateway processes listen on its port (SLUICE_GATEWAY_SOCKETS): `per-process` (a
   * SO_REUSEPORT socket each, balanced by the kernel) or `shared` (one socket they all accept
   * on); unset, a socket each when there are several and the system can.
   */
  gatewaySockets: SocketMode | undefined;
  env: NodeJS.ProcessEnv;
}

/** A configuration `npm run serve` refuses; the message says what to set. */
export class ServeConfigError extends Error {
  override readonly name = 'ServeConfigError';
}

const NEEDS_STORES =
  'npm run serve is the self-host mode and runs on real stores: set DATABASE_URL ' +
  '(postgres://user:password@host:5432/sluice) and REDIS_URL (redis://host:6379/0); CLICKHOUSE_URL ' +
  'is optional. For a first trial without any store, use `npm start` (embedded PGlite and an ' +
  'in-memory Redis).';

/** sslmode values that require TLS, which the bridge cannot give (it would silently go without). */
const TLS_SSLMODES = new Set(['require', 'verify-ca', 'verify-full']);

/** workerd's special network names; anything else must be a CIDR block. */
const NETWORK_NAMES = new Set(['public', 'private', 'local', 'network', 'unix', 'unix-abstract']);
const CIDR = /^[0-9A-Fa-f:.]+\/\d{1,3}$/;

const port = (min: number) => z.coerce.number().int().min(min).max(65535);
const schema = z.object({
  SLUICE_HOST: z.string().trim().min(1).default('127.0.0.1'),
  SLUICE_CONSOLE_HOST: z.string().trim().min(1).optional(),
  SLUICE_GATEWAY_PORT: port(1).default(3000),
  SLUICE_CONSOLE_PORT: port(1).default(3001),
  SLUICE_SIDECAR_PORT: port(0).default(0),
  SLUICE_DATA_DIR: z.string().trim().min(1).default('.sluice'),
  SLUICE_QUIET: z.string().optional(),
  SLUICE_OUTBOUND_ALLOW: z
    .string()
    .default('public,local')
    .transform((value) => value.split(',').map((item) => item.trim()))
    .refine((items) => items.length > 0 && items.every((i) => NETWORK_NAMES.has(i) || CIDR.test(i)), {
      message: `a comma-separated list of ${[...NETWORK_NAMES].join(', ')} or CIDR blocks`,
    }),
  SLUICE_REDIS_LINK: z.enum(['socket', 'bridge']).default('socket'),
  SLUICE_SERVE: z.enum(['both', 'gateway', 'console']).default('both'),
  // Read when the options are, so a process pinned to some cores (taskset, a container's cpuset)
  // starts one per core it has.
  SLUICE_GATEWAY_PROCESSES: z.coerce
    .number()
    .int()
    .min(1)
    .default(() => availableParallelism()),
  SLUICE_GATEWAY_SOCKETS: z.enum(['per-process', 'shared']).optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'),
});

/**
 * Reads and checks the environment of `npm run serve`: the same SLUICE_* variables as
 * `npm start`, plus SLUICE_HOST and SLUICE_OUTBOUND_ALLOW. Without DATABASE_URL and REDIS_URL it
 * refuses: the embedded stores are for a trial, and a trial is what `npm start` is for.
 */
export function serveOptionsFromEnv(env: NodeJS.ProcessEnv): ServeOptions {
  if (!env.DATABASE_URL || !env.REDIS_URL) throw new ServeConfigError(NEEDS_STORES);
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ServeConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  const sslmode = new URL(values.DATABASE_URL).searchParams.get('sslmode');
  if (sslmode && TLS_SSLMODES.has(sslmode)) {
    throw new ServeConfigError(
      `DATABASE_URL asks for sslmode=${sslmode}, but the store bridge talks to Postgres without TLS; ` +
        'run Postgres on this host or a private network and drop sslmode (or deploy with `wrangler deploy` and Neon).',
    );
  }
  return {
    host: values.SLUICE_HOST,
    consoleHost: values.SLUICE_CONSOLE_HOST ?? values.SLUICE_HOST,
    gatewayPort: values.SLUICE_GATEWAY_PORT,
    consolePort: values.SLUICE_CONSOLE_PORT,
    bridgePort: values.SLUICE_SIDECAR_PORT,
    dataDir: resolve(values.SLUICE_DATA_DIR),
    quiet: values.SLUICE_QUIET === '1',
    databaseUrl: values.DATABASE_URL,
    redisUrl: values.REDIS_URL,
    outboundAllow: values.SLUICE_OUTBOUND_ALLOW,
    redisLink: values.SLUICE_REDIS_LINK === 'socket',
    apps: { gateway: values.SLUICE_SERVE !== 'console', console: values.SLUICE_SERVE !== 'gateway' },
    gatewayProcesses: values.SLUICE_GATEWAY_PROCESSES,
    gatewaySockets: values.SLUICE_GATEWAY_SOCKETS,
    env,
  };
}
