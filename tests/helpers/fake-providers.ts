import { expect } from 'vitest';
import type { FakeUpstreams, Vendor } from '../fakes/server';

/** Provider type → the fake vendor that impersonates it. */
export const PROVIDER_VENDORS = {
  openai: 'openai',
  azure_openai: 'azure',
  custom: 'custom',
  anthropic: 'anthropic',
  google: 'google',
  bedrock: 'bedrock',
} as const satisfies Record<string, Vendor>;

export type FakeProviderType = keyof typeof PROVIDER_VENDORS;
export const FAKE_PROVIDER_TYPES = Object.keys(PROVIDER_VENDORS) as FakeProviderType[];

/** USD per million tokens on every priced model below. */
export const PRICES = { input_price_per_mtok: 1.5, output_price_per_mtok: 6 };

export interface ConsoleAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: console answers are asserted field by field.
  body: any;
}

export type ConsoleCall = (method: string, path: string, body?: unknown) => Promise<ConsoleAnswer>;

/** Registers, through the console API, a provider of `type` pointing at its fake; gives its id back. */
export async function registerFakeProvider(
  api: ConsoleCall,
  fakes: FakeUpstreams,
  type: FakeProviderType,
  name: string,
  displayName: string,
): Promise<string> {
  const vendor = PROVIDER_VENDORS[type];
  const res = await api('POST', '/api/admin/providers', {
    name,
    display_name: displayName,
    provider_type: type,
    base_url: fakes.baseUrlFor(vendor),
    api_key: fakes.apiKeyFor(vendor),
    config: fakes.configFor(vendor),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/**
 * Configures, through the console API, one provider per type pointing at the fakes and these
 * models: `m-<type>` (priced, one route each), `m-failover` (503 first, then Anthropic),
 * `m-all-fail`, `m-bad-request` (upstream 400), `m-unpriced`, `m-capped` (1 request/minute)
 * and `m-slow` (answers after 3 s).
 */
export async function configureFakeProviders(api: ConsoleCall, fakes: FakeUpstreams): Promise<void> {
  const providerIds: Record<string, string> = {};
  for (const type of FAKE_PROVIDER_TYPES) {
    const vendor = PROVIDER_VENDORS[type];
    providerIds[type] = await registerFakeProvider(api, fakes, type, `fake-${vendor}`, `Fake ${vendor}`);
  }
  const route = (type: FakeProviderType, upstream_model: string, extra: Record<string, unknown> = {}) => ({
    provider_id: providerIds[type],
    upstream_model,
    ...extra,
  });
  const models: Array<Record<string, unknown>> = [
    ...FAKE_PROVIDER_TYPES.map((type) => ({
      name: `m-${type}`,
      ...PRICES,
      routes: [route(type, 'test-model')],
    })),
    {
      name: 'm-failover',
      ...PRICES,
      routes: [route('openai', 'fail-503'), route('anthropic', 'test-model')],
    },
    { name: 'm-all-fail', ...PRICES, routes: [route('openai', 'fail-503'), route('google', 'fail-500')] },
    { name: 'm-bad-request', ...PRICES, routes: [route('openai', 'fail-400')] },
    { name: 'm-unpriced', routes: [route('openai', 'test-model')] },
    { name: 'm-capped', ...PRICES, routes: [route('custom', 'test-model', { rpm_cap: 1 })] },
    { name: 'm-slow', ...PRICES, routes: [route('openai', 'slow-3000')] },
  ];
  for (const model of models) {
    const res = await api('POST', '/api/admin/models', model);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
}

/** What the fakes charge: see tests/fakes/behaviour.ts (words in, words out). */
export function expectedCost(promptTokens: number, completionTokens: number): number {
  return (promptTokens * PRICES.input_price_per_mtok + completionTokens * PRICES.output_price_per_mtok) / 1e6;
}
