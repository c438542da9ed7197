import { describe, expect, it } from 'vitest';
import { testModel, testRoute } from '../../test/routing/test-fixtures';
import { redactPolicyOf, redactSettingSchema } from '../guardrails/redact-policy';
import type { PriceEntry } from '../pricing/types';
import type { ResolvedModel, ResolvedRoute } from '../routing/resolve';
import { buildLogRecord, type Exchange, type ExchangeResult } from './accounting';

const gpt4o: PriceEntry = {
  model: 'gpt-4o',
  vendor: 'openai',
  inputPricePerMtok: 2.5,
  outputPricePerMtok: 10,
  cachedInputPricePerMtok: 1.25,
  cacheWritePricePerMtok: null,
  cacheWrite1hPricePerMtok: null,
};

function exchange(resolved: ResolvedModel): Exchange {
  return {
    endpoint: '/v1/chat/completions',
    principal: { kind: 'user', userId: 'u', role: 'user' },
    request: { stream: false } as Exchange['request'],
    model: resolved,
    startedAt: 1_000,
    reserved: [],
  };
}

function result(patch: Partial<ExchangeResult>): ExchangeResult {
  return {
    route: null,
    statusCode: 200,
    usage: { inputTokens: 2000, outputTokens: 100, cachedInputTokens: 1000 },
    attempts: 1,
    upstreamLatencyMs: 5,
    cacheHit: false,
    clientAborted: false,
    ...patch,
  };
}

const tableRoute = testRoute({ routeId: null, upstreamModel: 'gpt-4o-2024-08-06', tablePrice: gpt4o });
const bareRoute = testRoute({ routeId: null, upstreamModel: 'house-model' });

describe('buildLogRecord pricing', () => {
  it("prices by the answering route's table entry, cached tokens at the cached rate", () => {
    const record = buildLogRecord(
      exchange(testModel([bareRoute, tableRoute])),
      result({ route: tableRoute }),
      1_050,
    );
    expect(record).toMatchObject({ costUsd: 0.00475, unpriced: false, cachedTokens: 1000, latencyMs: 50 });
  });

  it("lets the model's own prices win over the table", () => {
    const own = testModel([tableRoute], {
      inputPricePerMtok: 1,
      outputPricePerMtok: 2,
      cachedInputPricePerMtok: 0.5,
    });
    expect(buildLogRecord(exchange(own), result({ route: tableRoute }), 1_000).costUsd).toBe(0.0017);
  });

  it('is unpriced (null, flagged) when neither prices the route', () => {
    const record = buildLogRecord(
      exchange(testModel([tableRoute, bareRoute])),
      result({ route: bareRoute }),
      1_000,
    );
    expect(record).toMatchObject({ costUsd: null, unpriced: true });
  });

  it('prices a failure without a route by the first route: 0 when priced, null when not', () => {
    const failed = result({ route: null, usage: null, statusCode: 502 });
    expect(buildLogRecord(exchange(testModel([tableRoute])), failed, 1_000)).toMatchObject({
      costUsd: 0,
      unpriced: false,
    });
    expect(buildLogRecord(exchange(testModel([bareRoute, tableRoute])), failed, 1_000)).toMatchObject({
      costUsd: null,
      unpriced: true,
    });
  });

  it('records a cache hit of a priced model at 0, of an unpriced one as unpriced', () => {
    const hit = (r: ResolvedRoute) => result({ route: r, cacheHit: true });
    expect(buildLogRecord(exchange(testModel([tableRoute])), hit(tableRoute), 1_000).costUsd).toBe(0);
    expect(buildLogRecord(exchange(testModel([bareRoute])), hit(bareRoute), 1_000)).toMatchObject({
      costUsd: null,
      unpriced: true,
    });
  });
});

describe('buildLogRecord and security.redact', () => {
  it('stores the error text through the logs redactor', () => {
    const logRedactor = redactPolicyOf(redactSettingSchema.parse({ detectors: ['email'] }))?.logs ?? null;
    const failed = result({
      statusCode: 400,
      usage: null,
      errorType: 'x',
      errorMessage: 'unknown user a@b.io',
    });
    expect(buildLogRecord({ ...exchange(testModel([])), logRedactor }, failed, 1_000).errorMessage).toBe(
      'unknown user [REDACTED:email]',
    );
    expect(buildLogRecord(exchange(testModel([])), failed, 1_000).errorMessage).toBe('unknown user a@b.io');
  });
});
