import type { Budget } from './limits';

/**
 * Where the bridge reports what it has served: `GET /_bridge/counts` with the Upstash bearer
 * token (the Upstash endpoint answers it, so the token check is the one every Redis call
 * passes). Not a Redis command name, so no command is shadowed. Read by `npm run bench` to
 * count the apps' store round trips without a proxy in their path.
 */
export const BRIDGE_COUNTS_PATH = '/_bridge/counts';

/** Totals since the bridge started; a reader takes the difference of two readings. */
export interface BridgeCounts {
  /** Upstash REST requests: the apps' round trips to Redis. */
  upstash_requests: number;
  /** Redis commands those carried (a script call counts one; the script's own commands none). */
  redis_commands: number;
  /** Neon HTTP requests (`/sql`): the apps' single-statement round trips to Postgres. */
  sql_requests: number;
  /** SQL statements those carried (a transaction posted at once counts each of its statements). */
  sql_statements: number;
}

/**
 * The bridge's request counts: plain integers bumped once per request (no allocation, no
 * per-request work beyond that). Commands and statements come from the budgets' own totals.
 */
export class BridgeTally {
  private upstash = 0;
  private sql = 0;

  constructor(
    private readonly commands: Budget,
    private readonly statements: Budget,
  ) {}

  /** One HTTP request to the Upstash or the Neon HTTP endpoint; reading the counts is not counted. */
  request(url: string, isSql: boolean): void {
    if (isSql) this.sql++;
    else if (url !== BRIDGE_COUNTS_PATH) this.upstash++;
  }

  snapshot(): BridgeCounts {
    return {
      upstash_requests: this.upstash,
      redis_commands: this.commands.admitted,
      sql_requests: this.sql,
      sql_statements: this.statements.admitted,
    };
  }
}
