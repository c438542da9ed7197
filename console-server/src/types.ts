import type { AuditMirror } from '@sluice/shared/audit';
import type { AccessClaims, JwtSigner } from '@sluice/shared/auth/console';
import type { FetchDocument, McpAccessTokens } from '@sluice/shared/auth/oauth';
import type { LoginGate, PasswordHasher, RequestMeta } from '@sluice/shared/auth/sign-in';
import type { Db } from '@sluice/shared/db';
import type { FixedWindowCounter, Limiter, LimitSubject, SubjectLimits } from '@sluice/shared/limits';
import type { RequestLogStore } from '@sluice/shared/logs/requests';
import type { AccessLogRecord, AccessLogStore, AppLogStore, Logger } from '@sluice/shared/logs/server';
import type { McpLogStore, UpstreamMcpConnector } from '@sluice/shared/mcp';
import type { SecretBox } from '@sluice/shared/secrets';
import type { Tracer } from '@sluice/shared/telemetry';
import type { Redis } from '@upstash/redis';
import type { Pool } from 'pg';

/** Everything the console's routes need, built once by buildDeps. */
export interface ConsoleDeps {
  db: Db;
  /** The pool behind `db` (health figures, database spans). */
  pool: Pool;
  /** Ends the Postgres pool and the Redis connection (shutdown). */
  closeStores(): Promise<void>;
  /** OpenTelemetry traces (OTEL_*): request and database spans; the passthrough tracer when off. */
  tracer: Tracer;
  redis: Redis;
  jwt: JwtSigner;
  passwords: PasswordHasher;
  secrets: SecretBox;
  /** Failed logins per email+IP. */
  loginAttempts: LoginGate;
  /** Calls to the setup endpoint per client. */
  setupCalls: FixedWindowCounter;
  /** Null when no analytics store is configured. */
  pingAnalytics: (() => Promise<unknown>) | null;
  /**
   * Moves log rows that waited in Postgres during a ClickHouse outage to ClickHouse (0 without
   * ClickHouse). Run only by the background job (startSpillDrainJob in main.ts).
   */
  drainLogSpill?: () => Promise<number>;
  /**
   * Copy of audit_log in ClickHouse, null without one. Written only by the background job
   * (startAuditMirrorJob in main.ts), which reads committed rows, so routes never call it.
   */
  auditMirror?: AuditMirror | null;
  /** Reads the gateway's limit counters (GET /api/admin/limits/{subject}/{id}/usage). */
  limiter: Pick<Limiter, 'readUsage'>;
  /** The limits a caller runs under, read from Postgres each time (no cache). */
  limitsOf(subject: LimitSubject): Promise<SubjectLimits>;
  /** Connects to registered MCP servers (discovery). */
  mcpConnector: UpstreamMcpConnector;
  /** Deadline for connecting to and listing an MCP server. */
  mcpTimeoutMs: number;
  /** The gateway's tools/call log (GET /api/mcp/logs): ClickHouse when configured, else Postgres. */
  mcpLogs: McpLogStore;
  /** The gateway's model-request log (GET /api/gateway/logs): ClickHouse when configured, else Postgres. */
  requestLogs: RequestLogStore;
  /** Both servers' access log (GET /api/admin/access-logs): ClickHouse when configured, else Postgres. */
  accessLogs: AccessLogStore;
  /** Both servers' application log (GET /api/admin/app-logs), same target. */
  appLogs: AppLogStore;
  /** Structured logs: printed, and stored in the app log at SLUICE_LOG_LEVEL and above. */
  logger: Logger;
  /** Stores one access-log record in the next batch; never rejects. */
  recordAccess(record: AccessLogRecord): Promise<void>;
  /** Resolves once every access record and log line written so far is stored (shutdown). */
  flushLogs(): Promise<void>;
  storeTimeoutMs: number;
  /** The authorization server for /mcp (console-server/src/oauth). */
  oauth: {
    /** SLUICE_CONSOLE_URL: the issuer; null: the URL each request came to. */
    issuer: string | null;
    /** SLUICE_GATEWAY_URL: the resources tokens may be for; null: any …/mcp[/server]. */
    gatewayUrl: string | null;
    tokens: McpAccessTokens;
    fetchDocument: FetchDocument;
  };
  startedAt: number;
}

export type ConsoleEnv = {
  Variables: {
    deps: ConsoleDeps;
    meta: RequestMeta;
    auth: AccessClaims;
    /** Throws the route's 404 when the resource its path names is missing (middleware/found-first). */
    findResource?: () => Promise<unknown>;
    /** Set by the web UI's static files (ui-static.ts): a file of its build was answered. */
    uiAsset?: boolean;
  };
};
