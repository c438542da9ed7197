import type { Principal } from '../auth/gateway/principal';
import type { PassthroughPlan, ProviderAdapter, WireFormatName } from '../canonical/ports';
import type { Usage } from '../canonical/types';
import type { ContentPolicy } from '../guardrails/content-policy';
import type { RedactPolicy } from '../guardrails/redact-policy';
import type { ToolPolicy } from '../guardrails/tool-policy';
import type { BudgetAlerts } from '../limits/budget-alerts';
import type { BudgetThresholds } from '../limits/budget-status';
import type { LimitSubject } from '../limits/definitions';
import type { Gate } from '../limits/gate';
import type { RouteCaps } from '../limits/route-caps';
import type { CounterAddition } from '../limits/sliding-window';
import type { RequestLogRecord } from '../logs/requests/record';
import type { ResolvedModel, ResolvedRoute } from '../routing/resolve';
import type { RouteHealth } from '../routing/route-health-tracker';
import type { RouteLatency } from '../routing/route-order';
import type { Span } from '../telemetry/span';
import type { Background } from '../util/background';
import type { CallDeadline } from '../util/call-deadline';
import type { WireFormatWithUsageTap } from '../wire/common/wire-format';
import type { ByteChannel } from './byte-channel';
import type { ReasoningSeal } from './reasoning-seal';
import type { ResponseCache } from './response-cache';

export type ModelEndpoint =
  | '/v1/chat/completions'
  | '/v1/messages'
  | '/v1/responses'
  | '/v1/messages/count_tokens'
  | '/v1/embeddings';

/** The settings the proxy reads per request (from the gateway's cached settings reader). */
export interface ProxySettings {
  cacheTtlSeconds: number;
  /** Until the upstream's response headers (then the next route, or 504). */
  upstreamTimeoutMs: number;
  /** Longest silence of an upstream body once started (then the answer ends with an error). */
  upstreamIdleTimeoutMs: number;
  /** security.rate_limit_fail_closed: refuse rather than skip limits that cannot be checked. */
  rateLimitFailClosed: boolean;
  /** budget_warning_threshold, budget_critical_threshold. */
  budgetThresholds: BudgetThresholds;
  /** token_reservation_output_tokens: the most output a request reserves (limits/reservation.ts). */
  reservationOutputTokens: number;
  /** security.content as rules; null when none is set (guardrails/content-policy.ts). */
  contentPolicy: ContentPolicy | null;
  /** security.redact by place; null when none is set (guardrails/redact-policy.ts). */
  redaction: RedactPolicy | null;
  /** security.inspect_tools as rules, for the tool calls models answer with; null when none. */
  toolPolicy: ToolPolicy | null;
  /**
   * A short tag of the rules that reshape answers (redact for responses, inspect_tools): part
   * of the response cache's key, so an answer cached under other rules is not replayed.
   */
  answerRulesTag: string;
}

export type { LimitSubject } from '../limits/definitions';

/**
 * Everything the proxy needs, as ports; built once per isolate by the gateway. On a warm
 * isolate the model, settings and limit definitions come from memory, and the only store
 * round trip before the upstream call is the gate's.
 */
export interface ProxyDeps {
  fetch: typeof fetch;
  formats: Readonly<Record<WireFormatName, WireFormatWithUsageTap>>;
  providers: Readonly<Record<string, ProviderAdapter>>;
  /** The model's routes, from the isolate (loaded only when missing). */
  resolveModel(name: string, background: Background): Promise<ResolvedModel | null>;
  /** Opens a provider's sealed API key; the value is never logged. */
  revealProviderKey(sealed: string): Promise<string>;
  /** Seals a vendor's reasoning for a client of another format, and opens what it sends back. */
  seal: ReasoningSeal;
  /**
   * The runtime's own byte stream, which streamed answers built in JavaScript are handed to the
   * client through (proxy/byte-channel.ts); absent, they are the body as they are.
   */
  byteChannel?(): ByteChannel;
  /** Admission: limits, the cache read, the first route's caps and the caches' versions. */
  gate: Gate;
  /** The caps of routes after the first (the gate checks the first's). */
  routeCaps: Pick<RouteCaps, 'admit'>;
  /** Which routes are benched after failing, and where their outcomes are reported. */
  routeHealth: RouteHealth;
  /** How fast each route answered lately (this isolate): for the least_latency strategy. */
  routeLatency: RouteLatency;
  /** Tells once of a budget past a threshold (app log, webhook). */
  budgetAlerts: BudgetAlerts;
  /**
   * Adds weighted tokens to the limits of the key, its owner and (when capped) the route, and
   * gives back what the request reserved at admission, in the isolate's next write-behind
   * flush. Never rejects.
   */
  countTokens(settlement: TokenSettlement, keepAlive: Background): Promise<void>;
  cache: ResponseCache;
  /**
   * Queues the request-log row (and the metrics it carries) for the next batch. A batch is
   * kept alive by the request that opened it (`keepAlive`), so a request never waits for a
   * batch another request is writing. Never rejects.
   */
  writeLog(record: RequestLogRecord, keepAlive: Background): Promise<void>;
  settings(background: Background): Promise<ProxySettings>;
  /** SLUICE_OTEL_CAPTURE_CONTENT (otel_capture_content): recorded spans carry the messages, redacted. */
  traceContent?(): boolean;
  now(): number;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** A finished request's tokens, for the limits. */
export interface TokenSettlement {
  subject: LimitSubject;
  /** The route that answered (its TPM cap counts them); null for a cache hit or no answer. */
  route: ResolvedRoute | null;
  weightedTokens: number;
  nowMs: number;
  /** What admission reserved (limits/reservation.ts); given back now. */
  reserved: readonly CounterAddition[];
}

/** One client request to a model endpoint. */
export interface ProxyCall {
  endpoint: ModelEndpoint;
  format: WireFormatName;
  body: unknown;
  principal: Principal;
  /** Aborts when the client goes away; the upstream fetch is cancelled with it. */
  signal?: AbortSignal;
  /** The request's server span: admission, route attempts and the log write hang under it. */
  span?: Span;
  /**
   * The client's request headers: vendors' protocol headers (anthropic-beta, …) are forwarded
   * from them, and the log records who called (User-Agent, an agent's session id).
   */
  headers?: Headers;
  /**
   * False when the client opted out of the response cache. Asked only when the cache is on,
   * so a gateway without one reads no cache headers.
   */
  useCache(): boolean;
  /** Runs work after the response (the worker's waitUntil). */
  waitUntil: Background;
  /** Told when a streamed answer's body ends (the client has it all, or left). */
  bodyEnds?(ended: Promise<unknown>): void;
  /**
   * Authenticates the request again after the gate found the isolate's caches out of date
   * (a key revoked or changed elsewhere); throws the gateway's 401 when the key is no longer
   * valid. Absent: the principal stands.
   */
  reauthenticate?(): Promise<Principal>;
  /**
   * The request's one timer, for its waits in turn: the admission batch, then each upstream
   * call's headers and body (util/call-deadline.ts). Absent: each wait arms its own.
   */
  timer?: CallDeadline;
}

/** The route that answered, and how. */
export interface Attempt {
  route: ResolvedRoute;
  upstream: Response;
  /** Passthrough when the upstream speaks the client's format. */
  mode: 'native' | 'translate';
  adapter: ProviderAdapter;
  attempts: number;
  upstreamLatencyMs: number;
  /** The passthrough plan the upstream call was made with (native mode only). */
  plan?: PassthroughPlan;
  /** Stops the upstream call (its body included): a stalled upstream is not left holding a socket. */
  abortUpstream(reason: string): void;
  /** The upstream call's timer, paused after the headers (fetchUpstream): the body's wait reuses it. */
  deadline?: CallDeadline;
}

/** What a finished exchange tells the ledger. */
export interface Outcome {
  statusCode: number;
  usage: Usage | null;
  errorType: string | null;
  errorMessage: string | null;
  clientAborted: boolean;
}

export type { ResolvedModel, ResolvedRoute };
