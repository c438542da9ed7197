import { describe, expect, it } from 'vitest';
import type { WireFormatName } from '../canonical/ports';
import type { Principal } from '../gateway/principal';
import { contentPolicyOf, contentSettingSchema } from '../guardrails/content-policy';
import { AppError } from '../http/app-error';
import type { GateAsk, GateDecision } from '../limits/gate';
import type { CounterAddition } from '../limits/sliding-window';
import type { RequestLogRecord } from '../logs/requests/record';
import { openAiAdapter } from '../providers/openai/adapter';
import { HEALTHY } from '../routing/route-health';
import { createRouteLatency } from '../routing/route-order';
import { wireFormats } from '../wire/index';
import { estimatePromptTokens } from './estimate-tokens';
import { CACHE_HEADER, CLIENT_CLOSED_REQUEST, handleModelRequest } from './handle-model-request';
import type { ResponseCache } from './response-cache';
import type {
  ProxyCall,
  ProxyDeps,
  ProxySettings,
  ResolvedModel,
  ResolvedRoute,
  TokenSettlement,
} from './types';

const T0 = 1_700_000_000_000;
const UPSTREAM_MS = 120;

const ROUTE: ResolvedRoute = {
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

const MODEL: ResolvedModel = {
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
  routes: [ROUTE],
};

const PRINCIPAL: Principal = {
  kind: 'api_key',
  keyId: 'k1',
  userId: 'u1',
  role: 'user',
  allowedModels: null,
  rateLimitRpm: 60,
  expiresAt: null,
  gracePeriodEndsAt: null,
};

const RESERVED: CounterAddition[] = [
  { key: 'sluice:rl:key:k1:tokens', current: 28_333_333, bucketsInWindow: 60, amount: 70, expiryMs: 61_000 },
];

const ADMITTED: GateDecision = {
  kind: 'admitted',
  headers: { 'x-ratelimit-remaining-requests': '59' },
  firstRoute: { ok: true },
  cached: null,
  budget: null,
  reserved: RESERVED,
};

const SETTINGS: ProxySettings = {
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
const COMPLETION = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1741569952,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi!' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
};

/** The upstream's answer; `signal` is the one the proxy gave fetch. */
type Upstream = (signal: AbortSignal) => Response;
const answers: Upstream = () => Response.json(COMPLETION);

interface FakeOptions {
  upstream?: Upstream;
  decision?: GateDecision;
  settings?: Partial<ProxySettings>;
  model?: ResolvedModel;
  /** Bench ends by route id (the health snapshot). */
  benchedUntil?: Record<string, number>;
  /** How long the gate's round trip takes on the clock. */
  gateMs?: number;
}

/** A whole ProxyDeps of fakes: each port records what it was given. */
function fakeDeps(options: FakeOptions = {}) {
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
    providers: { openai: openAiAdapter },
    resolveModel: async (name) => (name === model.name ? model : null),
    revealProviderKey: async (sealed) => `sk-open-${sealed}`,
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
function clientCall(
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

const chatBody = (content: string) => ({
  model: 'house',
  max_tokens: 50,
  messages: [{ role: 'user', content }],
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${error}`);
  return error;
}

describe('handleModelRequest', () => {
  it('answers 200 through the route, logs the request and settles its tokens', async () => {
    const { deps, fetched, gateAsks, logs, settlements } = fakeDeps();
    const { call, settled } = clientCall(chatBody('hello'));
    const res = await handleModelRequest(call, deps);
    expect(res.status).toBe(200);
    expect(res.headers.get(CACHE_HEADER)).toBe('BYPASS');
    expect(res.headers.get('x-ratelimit-remaining-requests')).toBe('59');
    // openai-chat to an OpenAI route: the answer passes through as it came.
    expect(await res.json()).toEqual(COMPLETION);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]?.url).toBe('https://api.example/v1/chat/completions');
    expect(fetched[0]?.headers.authorization).toBe('Bearer sk-open-sealed-key');
    expect(fetched[0]?.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });

    const promptTokens = estimatePromptTokens(wireFormats['openai-chat'].parseRequest(chatBody('hello')));
    expect(gateAsks).toHaveLength(1);
    expect(gateAsks[0]).toMatchObject({
      subject: { keyId: 'k1', userId: 'u1', rateLimitRpm: 60 },
      route: { routeId: 'r1', rpmCap: 100, tpmCap: null },
      cacheKey: null,
      nowMs: T0,
      reserveTokens: promptTokens * 1 + 50 * 2,
    });

    await settled();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      statusCode: 200,
      model: 'house',
      provider: 'openai-main',
      routeId: 'r1',
      upstreamModel: 'gpt-4o-mini',
      apiKeyId: 'k1',
      userId: 'u1',
      promptTokens: 12,
      completionTokens: 5,
      weightedTokens: 12 + 5 * 2,
      costUsd: 0.000022,
      attempts: 1,
      upstreamLatencyMs: UPSTREAM_MS,
      latencyMs: UPSTREAM_MS,
      errorType: null,
      cacheHit: false,
      clientAborted: false,
    });
    expect(settlements).toEqual([
      {
        subject: { keyId: 'k1', userId: 'u1', rateLimitRpm: 60 },
        route: ROUTE,
        weightedTokens: 22,
        nowMs: T0 + UPSTREAM_MS,
        reserved: RESERVED,
      },
    ]);
  });

  it("translates for a client in another format, answering in the client's", async () => {
    const { deps, fetched, logs } = fakeDeps();
    const { call, settled } = clientCall(chatBody('bonjour'), 'anthropic-messages');
    const res = await handleModelRequest(call, deps);
    expect(fetched[0]?.body).toMatchObject({ model: 'gpt-4o-mini', max_completion_tokens: 50 });
    expect(await res.json()).toMatchObject({
      type: 'message',
      model: 'house',
      content: [{ type: 'text', text: 'Hi!' }],
      usage: { input_tokens: 12, output_tokens: 5 },
    });
    await settled();
    expect(logs[0]).toMatchObject({ endpoint: '/v1/messages', statusCode: 200, promptTokens: 12 });
  });

  it('answers 429 for a refused admission, calling and logging nothing', async () => {
    const decision: GateDecision = { kind: 'refused', label: 'key:requests/1m', retryAfterSeconds: 17 };
    const { deps, fetched, logs, settlements } = fakeDeps({ decision });
    const { call, settled } = clientCall(chatBody('hello'));
    const error = await refusal(handleModelRequest(call, deps));
    expect(error).toMatchObject({ status: 429, message: 'Rate limited: key:requests/1m' });
    expect(error.headers).toEqual({ 'Retry-After': '17' });
    await settled();
    expect(fetched).toEqual([]);
    expect(logs).toEqual([]);
    expect(settlements).toEqual([]);
  });

  it('refuses content the policy denies with a 400, logged, its reservation given back', async () => {
    const contentPolicy = contentPolicyOf(
      contentSettingSchema.parse({ deny: [{ name: 'no-passwords', regex: 'password' }] }),
    );
    const { deps, fetched, logs, settlements } = fakeDeps({ settings: { contentPolicy } });
    const { call, settled } = clientCall(chatBody('my password is hunter2'));
    const error = await refusal(handleModelRequest(call, deps));
    expect(error).toMatchObject({
      status: 400,
      type: 'content_policy_violation',
      message: 'Request blocked by content rule "no-passwords"',
    });
    await settled();
    expect(fetched).toEqual([]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      statusCode: 400,
      errorType: 'content_policy_violation',
      errorMessage: 'Request blocked by content rule "no-passwords"',
      provider: null,
      attempts: 0,
      promptTokens: 0,
    });
    expect(settlements).toEqual([
      expect.objectContaining({ weightedTokens: 0, route: null, reserved: RESERVED }),
    ]);
  });

  it('answers 502 when the only route answers 500, and logs the failure', async () => {
    const upstream = () => Response.json({ error: { message: 'The server had an error' } }, { status: 500 });
    const { deps, fetched, logs, settlements, reports } = fakeDeps({ upstream });
    const { call, settled } = clientCall(chatBody('hello'));
    const error = await refusal(handleModelRequest(call, deps));
    expect(error).toMatchObject({
      status: 502,
      type: 'upstream_error',
      message: 'All routes failed for model house (last: openai-main: 500 The server had an error)',
    });
    expect(fetched).toHaveLength(1);
    await settled();
    expect(reports).toEqual([['r1', 'failed']]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      statusCode: 502,
      errorType: 'upstream_error',
      provider: 'openai-main',
      routeId: 'r1',
      attempts: 1,
      promptTokens: 0,
      costUsd: 0,
    });
    expect(settlements).toEqual([
      expect.objectContaining({ weightedTokens: 0, route: ROUTE, reserved: RESERVED }),
    ]);
  });

  it('logs a client that left before the upstream answered as 499, sending nothing', async () => {
    const client = new AbortController();
    client.abort();
    const { deps, fetched, logs } = fakeDeps();
    const { call, settled } = clientCall(chatBody('hello'), 'openai-chat', client.signal);
    const res = await handleModelRequest(call, deps);
    expect(res.status).toBe(CLIENT_CLOSED_REQUEST);
    expect(fetched).toEqual([]);
    await settled();
    expect(logs[0]).toMatchObject({ statusCode: 499, clientAborted: true, promptTokens: 0 });
  });
});

describe('handleModelRequest, gaps found and closed', () => {
  // A client that leaves while a whole (non-streamed) answer's body is being read aborts the
  // upstream (upstream-fetch.ts), so the body read rejects with the abort's plain Error. Neither
  // answerClient nor forward() turns that into a ClientGoneError: settleUnanswered sees a
  // non-AppError, only gives the reservation back and rethrows. The request gets no log row
  // (no 499, no attempt), unlike a client leaving before the headers or during a stream.
  it('logs a client that left while the answer body was being read as 499', async () => {
    const client = new AbortController();
    const upstream: Upstream = (signal) => {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"id":"chatcmpl-1",'));
          signal.addEventListener('abort', () => c.error(signal.reason));
        },
      });
      setTimeout(() => client.abort(), 5);
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    };
    const { deps, logs } = fakeDeps({ upstream });
    const { call, settled } = clientCall(chatBody('hello'), 'openai-chat', client.signal);
    const res = await handleModelRequest(call, deps);
    expect(res.status).toBe(CLIENT_CLOSED_REQUEST);
    await settled();
    expect(logs[0]).toMatchObject({ statusCode: 499, clientAborted: true, attempts: 1 });
  });

  // Admission decides which route is first (and has the gate check its caps) on the bench as
  // of its own clock reading; the walk reads the bench at that same instant, so a bench that
  // ends during the gate's round trip changes nothing: the route the gate checked is called.
  it('calls the route the gate checked even when a bench ends during admission', async () => {
    const first: ResolvedRoute = { ...ROUTE, routeId: 'r1', rpmCap: 1 };
    const second: ResolvedRoute = { ...ROUTE, routeId: 'r2', providerName: 'openai-backup' };
    const model = { ...MODEL, routes: [first, second] };
    const { deps, gateAsks, capped, fetched, logs } = fakeDeps({
      model,
      benchedUntil: { r1: T0 + 3 },
      gateMs: 5,
    });
    const { call, settled } = clientCall(chatBody('hello'));
    expect((await handleModelRequest(call, deps)).status).toBe(200);
    await settled();
    expect(fetched).toHaveLength(1);
    expect(gateAsks[0]?.route?.routeId).toBe('r2');
    // No route was called without its caps checked, and none was checked twice.
    expect(capped).toEqual([]);
    expect(logs[0]).toMatchObject({ routeId: 'r2', provider: 'openai-backup', attempts: 1 });
  });
});
