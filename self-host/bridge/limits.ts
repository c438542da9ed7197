import * as z from 'zod';

/**
 * What the bridge holds at most at any moment. Past a cap a request is answered 503 at once
 * rather than queued: memory stays bounded under overload, and the apps' own store timeouts
 * and fail-open/closed policies decide what happens next.
 */
export interface BridgeLimits {
  /** Redis commands sent and not yet answered, over all Upstash requests. */
  maxCommandsInFlight: number;
  /** Neon HTTP statements waiting for or holding a Postgres connection. */
  maxQueriesInFlight: number;
  /** Request body bytes held over all requests (each one also capped by maxBodyBytes). */
  maxBytesInFlight: number;
  /** Largest single request body; bigger ones are refused with 413. */
  maxBodyBytes: number;
  /** Postgres connections per user/database for Neon HTTP. */
  pgPoolSize: number;
  /**
   * Longest wait for a Postgres connection or a statement's answer on Neon HTTP: past it the
   * statement fails (502) and its connection is dropped, so a dead link is not reused.
   */
  pgTimeoutMs: number;
  /**
   * A Redis batch unanswered this long means the link is dead: the bridge drops the connection
   * and the next command opens a new one.
   */
  redisTimeoutMs: number;
}

export const DEFAULT_BRIDGE_LIMITS: BridgeLimits = {
  maxCommandsInFlight: 10_000,
  maxQueriesInFlight: 1_000,
  maxBytesInFlight: 64 * 1024 * 1024,
  maxBodyBytes: 10 * 1024 * 1024,
  pgPoolSize: 10,
  pgTimeoutMs: 15_000,
  redisTimeoutMs: 5_000,
};

const count = z.coerce.number().int().min(1);
const envSchema = z.object({
  SLUICE_BRIDGE_MAX_COMMANDS: count.optional(),
  SLUICE_BRIDGE_MAX_QUERIES: count.optional(),
  SLUICE_BRIDGE_MAX_BYTES: count.optional(),
  SLUICE_BRIDGE_PG_POOL_SIZE: count.max(1_000).optional(),
  SLUICE_BRIDGE_PG_TIMEOUT_MS: count.min(100).max(600_000).optional(),
  SLUICE_BRIDGE_REDIS_TIMEOUT_MS: count.min(100).max(600_000).optional(),
});

/** The limits, with SLUICE_BRIDGE_* overrides from the environment. */
export function bridgeLimitsFromEnv(env: NodeJS.ProcessEnv): BridgeLimits {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid bridge limits: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  return {
    ...DEFAULT_BRIDGE_LIMITS,
    maxCommandsInFlight: values.SLUICE_BRIDGE_MAX_COMMANDS ?? DEFAULT_BRIDGE_LIMITS.maxCommandsInFlight,
    maxQueriesInFlight: values.SLUICE_BRIDGE_MAX_QUERIES ?? DEFAULT_BRIDGE_LIMITS.maxQueriesInFlight,
    maxBytesInFlight: values.SLUICE_BRIDGE_MAX_BYTES ?? DEFAULT_BRIDGE_LIMITS.maxBytesInFlight,
    pgPoolSize: values.SLUICE_BRIDGE_PG_POOL_SIZE ?? DEFAULT_BRIDGE_LIMITS.pgPoolSize,
    pgTimeoutMs: values.SLUICE_BRIDGE_PG_TIMEOUT_MS ?? DEFAULT_BRIDGE_LIMITS.pgTimeoutMs,
    redisTimeoutMs: values.SLUICE_BRIDGE_REDIS_TIMEOUT_MS ?? DEFAULT_BRIDGE_LIMITS.redisTimeoutMs,
  };
}

/** A counted allowance (commands, statements, bytes) taken while a request is in flight. */
export class Budget {
  private used = 0;
  private total = 0;

  constructor(
    /** Named in the 503's message, e.g. "Redis commands". */
    readonly what: string,
    readonly max: number,
  ) {}

  /** Takes `amount` when it fits, else takes nothing and returns false. */
  tryTake(amount: number): boolean {
    if (this.used + amount > this.max) return false;
    this.used += amount;
    this.total += amount;
    return true;
  }

  give(amount: number): void {
    this.used = Math.max(0, this.used - amount);
  }

  get inUse(): number {
    return this.used;
  }

  /** Everything ever taken (not given back): how many commands or statements were let through. */
  get admitted(): number {
    return this.total;
  }

  /** The text of the 503 when tryTake refused. */
  overloaded(): string {
    return `store bridge overloaded: ${this.used} ${this.what} already in flight (limit ${this.max}); retry later`;
  }
}
