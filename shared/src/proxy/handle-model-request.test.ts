import { describe, expect, it } from 'vitest';
import {
  COMPLETION,
  chatBody,
  clientCall,
  fakeDeps,
  MODEL,
  PRINCIPAL,
  RESERVED,
  ROUTE,
  refusal,
  T0,
  UPSTREAM_MS,
  type Upstream,
} from '../../test/proxy/test-deps';
import { contentPolicyOf, contentSettingSchema } from '../guardrails/content-policy';
import type { GateDecision } from '../limits/gate';
import { wireFormats } from '../wire/index';
import { estimatePromptTokens } from './estimate-tokens';
import {
  CACHE_HEADER,
  CLIENT_CLOSED_REQUEST,
  handleModelRequest,
  UPSTREAM_MODEL_HEADER,
} from './handle-model-request';
import type { ResolvedRoute } from './types';

describe('handleModelRequest', () => {
  it('answers 200 through the route, logs the request and settles its tokens', async () => {
    const { deps, fetched, gateAsks, logs, settlements } = fakeDeps();
    const { call, settled } = clientCall(chatBody('hello'));
    const res = await handleModelRequest(call, deps);
    expect(res.status).toBe(200);
    expect(res.headers.get(CACHE_HEADER)).toBe('BYPASS');
    expect(res.headers.get('x-ratelimit-remaining-requests')).toBe('59');
    // openai-chat to an OpenAI route: the answer passes through as it came, under the client's
    // name for the model (the upstream's id is in a header).
    expect(await res.json()).toEqual({ ...COMPLETION, model: 'house' });
    expect(res.headers.get(UPSTREAM_MODEL_HEADER)).toBe('gpt-4o-mini');
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
    expect(fetched[0]?.body).toMatchObject({ model: 'gpt-4o-mini', max_output_tokens: 50, store: false });
    expect(await res.json()).toMatchObject({
      type: 'message',
      model: 'house',
      content: [{ type: 'text', text: 'Hi!' }],
      usage: { input_tokens: 12, output_tokens: 5 },
    });
    await settled();
    expect(logs[0]).toMatchObject({ endpoint: '/v1/messages', statusCode: 200, promptTokens: 12 });
  });

  it('answers 429 for a refused admission, calling nothing, logging the refusal with no tokens', async () => {
    const decision: GateDecision = { kind: 'refused', label: 'key:requests/1m', retryAfterSeconds: 17 };
    const { deps, fetched, logs, settlements } = fakeDeps({ decision });
    const { call, settled } = clientCall(chatBody('hello'));
    const error = await refusal(handleModelRequest(call, deps));
    expect(error).toMatchObject({ status: 429, message: 'Rate limited: key:requests/1m' });
    expect(error.headers).toEqual({ 'Retry-After': '17' });
    await settled();
    expect(fetched).toEqual([]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      statusCode: 429,
      errorType: 'rate_limit_error',
      errorMessage: 'Rate limited: key:requests/1m',
      model: 'house',
      apiKeyId: 'k1',
      provider: null,
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
      unpriced: false,
      attempts: 0,
    });
    expect(settlements).toEqual([]);
  });

  it('logs a body refused at validation, and a model the key may not use, with who called', async () => {
    const { deps, logs } = fakeDeps();
    const headers = new Headers({
      'user-agent': 'codex_exec/0.171.0 (Debian 12; x86_64)',
      'session-id': 's-1',
    });
    const invalid = clientCall({ model: 'house', messages: [], stream: true });
    const error = await refusal(handleModelRequest({ ...invalid.call, headers }, deps));
    expect(error.status).toBe(400);
    const forbidden = clientCall(chatBody('hello'));
    const limited = { ...forbidden.call, principal: { ...PRINCIPAL, allowedModels: ['other'] } };
    expect((await refusal(handleModelRequest(limited, deps))).status).toBe(403);
    await Promise.all([invalid.settled(), forbidden.settled()]);
    expect(logs.map((row) => [row.statusCode, row.errorType, row.model, row.stream])).toEqual([
      [400, 'invalid_request_error', 'house', true],
      [403, 'permission_error', 'house', false],
    ]);
    expect(logs[0]).toMatchObject({
      clientName: 'codex',
      clientVersion: '0.171.0',
      sessionId: 's-1',
      userAgent: 'codex_exec/0.171.0 (Debian 12; x86_64)',
    });
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
