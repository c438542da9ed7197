import * as z from 'zod';

/**
 * Configuration both apps read from their environment (worker bindings or process.env).
 * Parsed once at the edge by buildDeps; domain code never reads the environment.
 */
const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();

export const storeEnvSchema = z.object({
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required'),
  UPSTASH_REDIS_REST_URL: z.url('UPSTASH_REDIS_REST_URL must be a URL'),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1, 'UPSTASH_REDIS_REST_TOKEN is required'),
  CLICKHOUSE_URL: optionalUrl,
  CLICKHOUSE_USER: z.string().optional(),
  CLICKHOUSE_PASSWORD: z.string().optional(),
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .default('sluice'),
  /** Local only: the dev sidecar's Neon HTTP SQL endpoint ("http://127.0.0.1:4400/sql"). */
  NEON_LOCAL_HTTP: optionalUrl,
  SLUICE_JWT_SECRET: z.string().min(32, 'SLUICE_JWT_SECRET must be at least 32 characters'),
  SLUICE_ENCRYPTION_KEY: z.string().min(1, 'SLUICE_ENCRYPTION_KEY is required'),
  /** The Redis hash /metrics is kept in: one per deployment sharing a Redis. */
  SLUICE_METRICS_KEY: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]+$/)
    .default('sluice:metrics'),
  /**
   * Longest a request's body may take to arrive, gateway and console: past it the request is
   * answered 408 and its connection closed, so a client trickling a body cannot hold one open.
   */
  SLUICE_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /**
   * After Redis lost its data, how long the console waits before it rebuilds the day, week and
   * month counters from the request log: rows of requests that ended just before the loss are
   * still in the gateways' batches (limits/counter-rebuild.ts).
   */
  SLUICE_COUNTER_REBUILD_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(15_000),
  /**
   * The console's public URL: the OAuth issuer that /mcp clients sign in with (the gateway
   * names it in its protected-resource metadata and checks it in tokens). npm start and
   * npm run serve set it to the console's local URL.
   */
  SLUICE_CONSOLE_URL: optionalUrl,
  /** The gateway's public URL: the resources (…/mcp, …/mcp/{server}) OAuth tokens may be for. */
  SLUICE_GATEWAY_URL: optionalUrl,
  /** Upper bound on any single store call, so a hung store cannot hang a request. */
  SLUICE_STORE_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /**
   * Upper bound on one console query (and on getting a connection for it): past it the
   * connection is dropped and the request answered 503, so a blackholed Postgres cannot hang
   * the console. Longer than the store timeout: console reports may scan many rows.
   */
  SLUICE_DB_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /**
   * How long an upstream may take to send its response headers before the next route is
   * tried (or 504). Unset: the console setting `upstream_timeout_seconds` (120 s by default).
   */
  SLUICE_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
  /** Longest silence of an upstream's body once it has started; then the answer ends with an error. */
  SLUICE_UPSTREAM_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * Longest single event of an upstream's stream the gateway reads (characters, about bytes):
   * past it the answer ends with the format's error event (sse/parser.ts).
   */
  SLUICE_MAX_STREAM_EVENT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(16 * 1024 * 1024),
  /** Route benching (routing/route-health.ts): failures within the window that bench a route. */
  SLUICE_ROUTE_BENCH_FAILURES: z.coerce.number().int().min(1).max(1_000).default(3),
  SLUICE_ROUTE_BENCH_WINDOW_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  /** The first bench; each failed probe doubles it up to the max. */
  SLUICE_ROUTE_BENCH_COOLDOWN_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  SLUICE_ROUTE_BENCH_MAX_COOLDOWN_MS: z.coerce.number().int().min(100).max(86_400_000).default(300_000),
  /** Host names /mcp answers (comma-separated); unset: any (mcp/gateway/origin-policy.ts). */
  SLUICE_MCP_ALLOWED_HOSTS: z.string().optional(),
  /** Origins other than the gateway's own that may call /mcp from a browser (comma-separated). */
  SLUICE_MCP_ALLOWED_ORIGINS: z.string().optional(),
});

export type StoreEnv = z.infer<typeof storeEnvSchema>;

export function parseStoreEnv(env: Record<string, unknown>): StoreEnv {
  return parseEnv(storeEnvSchema, env);
}

/** The environment read by a schema; every problem named in one error. */
export function parseEnv<T>(schema: z.ZodType<T>, env: Record<string, unknown>): T {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return result.data;
}
