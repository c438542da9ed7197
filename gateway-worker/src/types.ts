import type { GatewayAuthDeps, Principal } from '@sluice/shared/auth/gateway';
import type { McpResourceServer } from '@sluice/shared/auth/oauth';
import type { QueryDb } from '@sluice/shared/db';
import type { ServableModel } from '@sluice/shared/db/repos';
import type { UsageDeps } from '@sluice/shared/gateway';
import type { AccessLogRecord, Logger } from '@sluice/shared/logs/server';
import type { McpOriginPolicy, MethodDeps } from '@sluice/shared/mcp/gateway';
import type { MetricsStore } from '@sluice/shared/metrics';
import type { ProxyDeps } from '@sluice/shared/proxy';
import type { Span, Tracer } from '@sluice/shared/telemetry';
import type { Background } from '@sluice/shared/util';
import type { Redis } from '@upstash/redis';

/** Worker bindings (wrangler vars and secrets). Parsed by buildDeps. */
export type GatewayBindings = Record<string, unknown>;

export interface GatewayDeps {
  /** Neon over HTTP: one statement at a time, no transactions (they do not compile). */
  db: QueryDb;
  redis: Redis;
  auth: GatewayAuthDeps;
  proxy: ProxyDeps;
  usage: UsageDeps;
  mcp: MethodDeps;
  /** What /v1/models lists, from the isolate (read from Postgres only when missing). */
  servableModels(background: Background): Promise<readonly ServableModel[]>;
  /** OAuth on /mcp: the authorization server it trusts, and how tokens are checked. */
  mcpOAuth: McpResourceServer;
  /** Which Host and Origin headers /mcp accepts (DNS-rebinding protection). */
  mcpOrigins: McpOriginPolicy;
  metrics: MetricsStore;
  /** OpenTelemetry traces (OTEL_*): the passthrough tracer when none are exported. */
  tracer: Tracer;
  /** Tracing from the console's settings (no OTEL_* variables): looks at them again now and then. */
  refreshTracing?(background: () => Background): void;
  storeTimeoutMs: number;
  /** Longest a request's body may take to arrive (SLUICE_BODY_TIMEOUT_MS), then 408. */
  bodyTimeoutMs: number;
  /** Structured logs: printed, and stored in the app log (hand flush() to waitUntil). */
  logger: Logger;
  /** Stores one access-log record in the next batch; a batch it opens goes to `keepAlive`. */
  recordAccess(record: AccessLogRecord, keepAlive?: Background): Promise<void>;
}

/**
 * Read variables with `c.get(name)`, not `c.var.name`: Hono's `c.var` builds a fresh object of
 * every variable on each read, a measurable cost on the hot path.
 */
export type GatewayEnv = {
  Bindings: GatewayBindings;
  Variables: {
    deps: GatewayDeps;
    principal: Principal;
    /** The request's server span (telemetry/tracer.ts); a context-only one when not recorded. */
    span: Span;
    /**
     * Set by a route whose streamed body it watches itself (the model endpoints): settles when
     * the client has the whole body or has left. The metrics middleware then needs no stage of
     * its own around the body to know when the request ends.
     */
    bodyEnds?: Promise<unknown>;
  };
};
