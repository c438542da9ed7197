/**
 * A whole ProxyDeps of recording fakes, and the fixtures the proxy's unit tests share: a
 * configured model with one OpenAI route, an admitted gate decision, settings, a client call.
 */

import type { Principal } from '../../src/auth/gateway/principal';
import type { WireFormatName } from '../../src/canonical/ports';
import { AppError } from '../../src/http/app-error';
import type { GateAsk, GateDecision } from '../../src/limits/gate';
import type { CounterAddition } from '../../src/limits/sliding-window';
import type { RequestLogRecord } from '../../src/logs/requests/record';
import { openAiAdapter } from '../../src/providers/openai/adapter';
import { createReasoningSeal } from '../../src/proxy/reasoning-seal';
import type { ResponseCache } from '../../src/proxy/response-cache';
import type {
  ProxyCall,
  ProxyDeps,
  ProxySettings,
  ResolvedModel,
  ResolvedRoute,
  TokenSettlement,
} from '../../src/proxy/types';
import { HEALTHY } from '../../src/routing/route-health';
import { createRouteLatency } from '../../src/routing/route-order';
import { wireFormats } from '../../src/wire/index';

export const T0 = 1_700_000_000_000;
export const SEAL_KEY = 'a'.repeat(64);
export const UPSTREAM_MS = 120;

export const ROUTE: ResolvedRoute = {
  routeId: 'r1',
  providerId: 'p1',
  providerName: 'openai-main',
  providerType: 'openai',
  baseUrl: 'https://api.example/v1',
  apiKeyEncrypted: 'sealed-key',
  config: {},
  upstreamModel: 'gpt-4o-mini',
  rpmCap: 100,
  tpmCap: null,
  weight: 1,
  tablePrice: null,
};

export const MODEL: ResolvedModel = {
  source: 'configured',
  modelId: 'm1',
  name: 'house',
  kind: 'chat',
  strategy: 'ordered',
  inputWeight: 1,
  outputWeight: 2,
  inputPricePerMtok: 1,
  outputPricePerMtok: 2,
  cachedInputPricePerMtok: null,
  cacheWritePricePerMtok: null,
  cacheWrite1hPricePerMtok: null,
  maxOutputTokens: null,
  cacheBreakpoints: true,
  routes: [ROUTE],
};

export const PRINCIPAL: Principal = {
  kind: 'api_key',
  keyId: 'k1',
  userId: 'u1',
  role: 'user',
  allowedModels: null,
  rateLimitRpm: 60,
  expiresAt: null,
  gracePeriodEndsAt: null,
};

export const RESERVED: CounterAddition[] = [
  { key: 'sluice:rl:key:k1:tokens', current: 28_333_333, bucketsInWindow: 60, amount: 70, expiryMs: 61_000 },
];

export const ADMITTED: Extract<GateDecision, { kind: 'admitted' }> = {
  kind: 'admitted',
  headers: { 'x-ratelimit-remaining-requests': '59' },
  firstRoute: { ok: true },
  cached: null,
  budget: null,
  reserved: RESERVED,
};

export const SETTINGS: ProxySettings = {
  ...{
    cacheTtlSeconds: 0,
    upstreamTimeoutMs: 5_000,
    upstreamIdleTimeoutMs: 5_000,
    rateLimitFailClosed: false,
  },
  budgetThresholds: { warning: 0.8, critical: 0.95 },
  reservationOutputTokens: 1_000,
  contentPolicy: null,
  redaction: null,
  toolPolicy: null,
  answerRulesTag: '',
};

/** api.openai.com's chat completion. */
export const COMPLETION = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1741569952,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi!' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
};

/** The upstream's answer; `signal` is the one the proxy gave fetch. */
export type Upstream = (signal: AbortSignal) => Response;
export const answers: Upstream = () => Response.json(COMPLETION);

export interface FakeOptions {
  upstream?: Upstream;
  /** Provider adapters by type (default: OpenAI's). */
  providers?: ProxyDeps['providers'];
  decision?: GateDecision;
  settings?: Partial<ProxySettings>;
  model?: ResolvedModel;
  /** Bench ends by route id (the health snapshot). */
  benchedUntil?: Record<string, number>;
  /** How long the gate's round trip takes on the clock. */
  gateMs?: number;
}

/** A whole ProxyDeps of fakes: each port records what it was given. */
export function fakeDeps(options: FakeOptions = {}) {
  const model = options.model ?? MODEL;
  const clock = { t: T0 };
  const capped: string[] = [];
  const fetched: Array<{ url: string; headers: Record<string, string>; body: Record<string, unknown> }> = [];
  const gateAsks: GateAsk[] = [];
  const logs: RequestLogRecord[] = [];
  const settlements: TokenSettlement[] = [];
  const reports: Array<[string, string]> = [];
  const deps: ProxyDeps = {
    fetch: (async (url: string, init: RequestInit) => {
      fetched.push({
        url,
        headers: init.headers as Record<string, string>,
        body: JSON.parse(String(init.body)),
      });
      clock.t += UPSTREAM_MS;
      return (options.upstream ?? answers)(init.signal as AbortSignal);
    }) as unknown as typeof fetch,
    formats: wireFormats,
    providers: options.providers ?? { openai: openAiAdapter },
    resolveModel: async (name) => (name === model.name ? model : null),
    revealProviderKey: async (sealed) => `sk-open-${sealed}`,
    seal: createReasoningSeal(SEAL_KEY),
    gate: {
      async admit(ask) {
        gateAsks.push(ask);
        clock.t += options.gateMs ?? 0;
        return options.decision ?? ADMITTED;
      },
    },
    routeCaps: {
      admit: async ({ routeId }) => {
        capped.push(routeId);
        return { ok: true };
      },
    },
    routeHealth: {
      snapshot: () => ({
        state: (id) => ({ ...HEALTHY, benchedUntil: options.benchedUntil?.[id ?? ''] ?? 0 }),
      }),
      report: (routeId, outcome) => void reports.push([routeId, outcome]),
    },
    routeLatency: createRouteLatency(),
    budgetAlerts: { notice: () => undefined },
    countTokens: async (settlement) => void settlements.push(settlement),
    cache: {} as ResponseCache,
    writeLog: async (record) => void logs.push(record),
    settings: async () => ({ ...SETTINGS, ...options.settings }),
    now: () => clock.t,
    warn: (message) => {
      throw new Error(`unexpected warning: ${message}`);
    },
  };
  return { deps, fetched, gateAsks, logs, settlements, reports, capped };
}

/** A client's call; `settled()` waits for the work handed to waitUntil. */
export function clientCall(
  body: Record<string, unknown>,
  format: WireFormatName = 'openai-chat',
  signal?: AbortSignal,
) {
  const background: Array<Promise<unknown>> = [];
  const call: ProxyCall = {
    endpoint: format === 'openai-chat' ? '/v1/chat/completions' : '/v1/messages',
    format,
    body,
    principal: PRINCIPAL,
    useCache: () => false,
    waitUntil: (work) => void background.push(work),
    ...(signal && { signal }),
  };
  return { call, settled: () => Promise.all(background) };
}

export const chatBody = (content: string) => ({
  model: 'house',
  max_tokens: 50,
  messages: [{ role: 'user', content }],
});

export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${error}`);
  return error;
}
