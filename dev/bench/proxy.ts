/**
 * The model proxy against a fake upstream: the same request sent to the fake directly and
 * through the gateway (API key auth, routing, passthrough or translation, request log on),
 * under a max-throughput and a fixed-rate load. Prints the gateway's figures as ratios to the
 * direct ones and its added latency.
 */
import { startFakeUpstreams } from '../../tests/fakes/server';
import { type Figures, fixedRate, formatFigures, maxThroughput, type Send } from './measure';

const TOTAL = Number(process.env.BENCH_PROXY_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 5);

const json = { 'content-type': 'application/json' };

function post(url: string, headers: Record<string, string>, body: unknown): Send {
  const text = JSON.stringify(body);
  return () => fetch(url, { method: 'POST', headers: { ...json, ...headers }, body: text });
}

function compare(label: string, direct: Figures, gateway: Figures): string {
  return [
    `  ${label.padEnd(42)}`,
    `throughput ${(gateway.requestsPerSecond / direct.requestsPerSecond).toFixed(2)}x of direct`,
    `added p50 ${(gateway.p50 - direct.p50).toFixed(2)} ms`,
    `added p99 ${(gateway.p99 - direct.p99).toFixed(2)} ms`,
  ].join('  ');
}

async function configure(
  consoleUrl: string,
  token: string,
  fakes: Awaited<ReturnType<typeof startFakeUpstreams>>,
) {
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${consoleUrl}${path}`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string; key: string };
  };
  const provider = (type: string, vendor: 'openai' | 'anthropic') =>
    call('/api/admin/providers', {
      name: `bench-${vendor}`,
      display_name: `Bench ${vendor}`,
      provider_type: type,
      base_url: fakes.baseUrlFor(vendor),
      api_key: fakes.apiKeyFor(vendor),
    });
  const openai = await provider('openai', 'openai');
  const anthropic = await provider('anthropic', 'anthropic');
  const prices = { input_price_per_mtok: 1, output_price_per_mtok: 2 };
  const route = (p: { id: string }) => [{ provider_id: p.id, upstream_model: 'test-model' }];
  await call('/api/admin/models', { name: 'bench-passthrough', ...prices, routes: route(openai) });
  await call('/api/admin/models', { name: 'bench-translated', ...prices, routes: route(anthropic) });
  const plain = await call('/api/keys', { name: 'bench' });
  // A key with limits of its own on top of its owner's: what admission costs when it has work.
  const limited = await call('/api/keys', { name: 'bench-limited' });
  const put = (path: string, body: unknown) =>
    fetch(`${consoleUrl}${path}`, {
      method: 'PUT',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  const big = 1_000_000_000;
  await put(`/api/admin/limits/api_key/${limited.id}/rules`, {
    rules: [
      { kind: 'requests', window: '1m', limit: big },
      { kind: 'requests', window: '1h', limit: big },
      { kind: 'tokens', window: '5h', limit: big },
    ],
  });
  await put(`/api/admin/limits/api_key/${limited.id}/budgets`, {
    budgets: [{ period: 'daily', limit_tokens: big }],
  });
  return { key: plain.key, limitedKey: limited.key };
}

/** Redis commands the server ran, by name, when the bench talks to a real Redis (REDIS_URL). */
async function redisCommandCounts(): Promise<Map<string, number> | null> {
  if (!process.env.REDIS_URL) return null;
  const { default: Redis } = await import('ioredis');
  const client = new Redis(process.env.REDIS_URL, { lazyConnect: true });
  try {
    await client.connect();
    const info = await client.info('commandstats');
    const counts = new Map<string, number>();
    for (const match of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm))
      counts.set(match[1]!, Number(match[2]));
    return counts;
  } finally {
    client.disconnect();
  }
}

function perRequest(before: Map<string, number>, after: Map<string, number>, requests: number): string {
  const lines = [...after]
    .map(([name, calls]) => [name, (calls - (before.get(name) ?? 0)) / requests] as const)
    .filter(([, n]) => n >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n.toFixed(2)}`);
  const total =
    lines.length === 0
      ? 0
      : [...after].reduce((sum, [name, calls]) => sum + calls - (before.get(name) ?? 0), 0);
  return `  Redis commands per request: ${(total / requests).toFixed(2)} (${lines.join(', ')})`;
}

export async function benchProxy(gatewayUrl: string, consoleUrl: string, token: string): Promise<void> {
  const fakes = await startFakeUpstreams();
  try {
    const { key, limitedKey } = await configure(consoleUrl, token, fakes);
    const messages = [{ role: 'user', content: 'How fast is the gateway today?' }];
    const direct = post(
      `${fakes.baseUrlFor('openai')}/chat/completions`,
      { authorization: `Bearer ${fakes.apiKeyFor('openai')}` },
      { model: 'test-model', messages },
    );
    // no-cache: every request goes upstream, so this measures the proxy, not the cache.
    const viaGateway = (model: string, apiKey = key) =>
      post(
        `${gatewayUrl}/v1/chat/completions`,
        { authorization: `Bearer ${apiKey}`, 'cache-control': 'no-cache' },
        { model, messages },
      );
    const cases: Array<[string, Send]> = [
      ['gateway chat → openai (passthrough)', viaGateway('bench-passthrough')],
      ['gateway chat → anthropic (translated)', viaGateway('bench-translated')],
      ['gateway chat → openai, key with 4 limits', viaGateway('bench-passthrough', limitedKey)],
    ];
    console.log(
      `\nModel proxy vs. the fake upstream called directly (${TOTAL} requests, concurrency ${CONCURRENCY})`,
    );
    await maxThroughput(direct, 100, CONCURRENCY);
    const directMax = await maxThroughput(direct, TOTAL, CONCURRENCY);
    console.log(formatFigures('direct fake upstream', directMax));
    for (const [name, send] of cases) {
      await maxThroughput(send, 100, CONCURRENCY);
      const before = await redisCommandCounts();
      const figures = await maxThroughput(send, TOTAL, CONCURRENCY);
      const after = await redisCommandCounts();
      console.log(formatFigures(name, figures));
      console.log(compare('max throughput', directMax, figures));
      if (before && after) console.log(perRequest(before, after, TOTAL));
    }
    console.log(`\nFixed rate ${RATE} req/s for ${RATE_SECONDS} s (open loop)`);
    const directRate = await fixedRate(direct, RATE, RATE_SECONDS);
    console.log(formatFigures('direct fake upstream', directRate));
    for (const [name, send] of cases) {
      const figures = await fixedRate(send, RATE, RATE_SECONDS);
      console.log(formatFigures(name, figures));
      console.log(compare('fixed rate', directRate, figures));
    }
  } finally {
    await fakes.close();
  }
}
