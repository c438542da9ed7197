/**
 * The gateway set up for the coding-agent tests, through the console API as an operator would:
 * one provider per route type pointing at the fake vendors, a model alias per route (priced,
 * cache prices included), and a key per run; plus what the fakes saw, told in a few lines for
 * failure messages.
 */
import { expect, vi } from 'vitest';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import { asArray, asRecord } from '../fakes/behaviour';
import type { FakeUpstreams, RecordedRequest } from '../fakes/server';
import { type ConsoleCall, PROVIDER_VENDORS, registerFakeProvider } from './fake-providers';

export type RouteType = 'anthropic' | 'openai' | 'bedrock';

/** The alias clients send, and the upstream model behind it, per route type. */
export const AGENT_MODELS: Readonly<Record<RouteType, { alias: string; upstream: string }>> = {
  anthropic: { alias: 'agent-anth', upstream: 'claude-sonnet-4-5' },
  openai: { alias: 'agent-oai', upstream: 'gpt-5' },
  bedrock: { alias: 'agent-bedrock', upstream: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
};

/** USD per million tokens: input, output, cache reads, five-minute and one-hour cache writes. */
export const AGENT_PRICES = {
  input_price_per_mtok: 3,
  output_price_per_mtok: 15,
  cached_input_price_per_mtok: 0.3,
  cache_write_price_per_mtok: 3.75,
  cache_write_1h_price_per_mtok: 6,
};

/** What a request-log row should cost at AGENT_PRICES, each input token billed once. */
export function agentCost(row: RequestLogRecord): number {
  const p = AGENT_PRICES;
  const plain = row.promptTokens - row.cachedTokens - row.cacheWriteTokens;
  const usd =
    plain * p.input_price_per_mtok +
    row.cachedTokens * p.cached_input_price_per_mtok +
    (row.cacheWriteTokens - row.cacheWriteHourTokens) * p.cache_write_price_per_mtok +
    row.cacheWriteHourTokens * p.cache_write_1h_price_per_mtok +
    row.completionTokens * p.output_price_per_mtok;
  return usd / 1e6;
}

/** Registers a provider per route type on `fakes` and the aliases; gives the providers' ids back. */
export async function configureAgentRoutes(api: ConsoleCall, fakes: FakeUpstreams): Promise<string[]> {
  const providerIds: string[] = [];
  for (const type of Object.keys(AGENT_MODELS) as RouteType[]) {
    const vendor = PROVIDER_VENDORS[type];
    const providerId = await registerFakeProvider(api, fakes, type, `agents-${vendor}`, `Agents ${vendor}`);
    providerIds.push(providerId);
    const { alias, upstream } = AGENT_MODELS[type];
    const model = await api('POST', '/api/admin/models', {
      name: alias,
      ...AGENT_PRICES,
      routes: [{ provider_id: providerId, upstream_model: upstream }],
    });
    expect(model.status, JSON.stringify(model.body)).toBe(201);
  }
  return providerIds;
}

/** A key of its own for one run, so its request-log rows are told apart by key. */
export async function createAgentKey(api: ConsoleCall, name: string): Promise<{ id: string; key: string }> {
  const created = await api('POST', '/api/keys', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id, key: created.body.key };
}

/** Waits until the gateway's isolates know every alias (a model change takes about a second). */
export async function waitForAliases(gatewayUrl: string, apiKey: string): Promise<void> {
  for (const { alias } of Object.values(AGENT_MODELS)) {
    await vi.waitFor(
      async () => {
        const res = await fetch(`${gatewayUrl}/v1/models/${alias}`, {
          headers: { authorization: `Bearer ${apiKey}` },
        });
        if (res.status !== 200) throw new Error(`${alias}: ${res.status}`);
      },
      { timeout: 10_000, interval: 200 },
    );
  }
}

function blockTypes(content: unknown): string {
  if (typeof content === 'string') return 'str';
  return asArray(content)
    .map((block) => String(asRecord(block)?.type ?? Object.keys(asRecord(block) ?? {})[0]))
    .join('+');
}

/** The shape of a vendor request: its turns and their block types, and its reasoning fields. */
export function requestShape(body: unknown): string {
  const root = asRecord(body) ?? {};
  const turns = asArray(root.messages ?? root.input).map((value) => {
    const item = asRecord(value) ?? {};
    if (typeof item.role === 'string') return `${item.role}[${blockTypes(item.content)}]`;
    return String(item.type);
  });
  const reasoning = {
    thinking: root.thinking,
    reasoning: root.reasoning,
    reasoning_effort: root.reasoning_effort,
    additionalModelRequestFields: root.additionalModelRequestFields,
  };
  return `keys=${Object.keys(root).join(',')} turns=${turns.join(' ')} reasoning=${JSON.stringify(reasoning)}`;
}

/** What the fakes saw of a run, a line per request (and its shape), for failure messages. */
export function describeRequests(requests: readonly RecordedRequest[]): string {
  const lines = requests.map((request, n) => {
    const { observed } = request;
    const answer =
      observed.answer?.kind === 'tool'
        ? `tool ${observed.answer.name}(${observed.answer.arguments})`
        : observed.answer?.kind === 'text'
          ? `text ${JSON.stringify(observed.answer.text.slice(0, 120))}`
          : 'no answer';
    const error = observed.error ? ` error=${JSON.stringify(observed.error)}` : '';
    return `#${n + 1} ${request.method} ${request.path} → ${observed.status ?? '?'}${error} ${answer} verifiedReasoning=${observed.verifiedReasoning}\n    ${requestShape(request.body)}`;
  });
  return `--- the fake vendor saw ${requests.length} request(s)\n${lines.join('\n')}`;
}
