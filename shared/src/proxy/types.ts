import type { ProviderAdapter, WireFormatName } from '../canonical/ports';
import type { Usage } from '../canonical/types';
import type { Principal } from '../gateway/principal';
import type { RequestLogRecord } from '../ledger/record';
import type { Limiter } from '../limits/limiter';
import type { RouteCaps } from '../limits/route-caps';
import type { ResolvedModel, ResolvedRoute } from '../routing/resolve';
import type { WireFormatWithUsageTap } from '../wire/common/wire-format';
import type { ResponseCache } from './response-cache';

export type ModelEndpoint = '/v1/chat/completions' | '/v1/messages' | '/v1/responses';

/** The settings the proxy reads per request (from the gateway's cached settings reader). */
export interface ProxySettings {
  cacheTtlSeconds: number;
  upstreamTimeoutMs: number;
  /** security.rate_limit_fail_closed: refuse rather than skip limits that cannot be checked. */
  rateLimitFailClosed: boolean;
}

export type { LimitSubject } from '../limits/definitions';
export type { LimitAdmission } from '../limits/limiter';

/** The limits engine as the proxy uses it (shared/src/limits/limiter.ts). */
export type ProxyLimiter = Pick<Limiter, 'admit' | 'addTokens'>;

/** Everything the proxy needs, as ports; built once per isolate by the gateway. */
export interface ProxyDeps {
  fetch: typeof fetch;
  formats: Readonly<Record<WireFormatName, WireFormatWithUsageTap>>;
  providers: Readonly<Record<string, ProviderAdapter>>;
  resolveModel(name: string): Promise<ResolvedModel | null>;
  /** Opens a provider's sealed API key; the value is never logged. */
  revealProviderKey(sealed: string): Promise<string>;
  routeCaps: RouteCaps;
  limiter: ProxyLimiter;
  cache: ResponseCache;
  writeLog(record: RequestLogRecord): Promise<void>;
  settings(): Promise<ProxySettings>;
  now(): number;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** One client request to a model endpoint. */
export interface ProxyCall {
  endpoint: ModelEndpoint;
  format: WireFormatName;
  body: unknown;
  principal: Principal;
  /** Aborts when the client goes away; the upstream fetch is cancelled with it. */
  signal?: AbortSignal;
  /** False when the client opted out of the response cache. */
  useCache: boolean;
  /** Runs work after the response (the worker's waitUntil). */
  waitUntil(work: Promise<unknown>): void;
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
  streamTransform?: () => ReadableWritablePair<Uint8Array, Uint8Array>;
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
