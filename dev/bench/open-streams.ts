// `npm run bench:streams`: thousands of streams held open on one gateway process. An upstream
// drips one token a second (drip-upstream.ts) for BENCH_DRIP_SECONDS (120); BENCH_STREAMS (5000)
// clients open a streamed chat each, ramped over BENCH_RAMP_SECONDS (20), on an `npm run serve`
// stack with real Postgres and Redis and one gateway process. Meanwhile a plain chat is sent
// every 200 ms from a thread of its own, to an upstream in that thread (plain-prober.ts: its
// latency is the gateway's, not the wait behind this process's streams), and once all are open
// a key limited to 5 requests a minute sends 8 (exactly 5 must pass: limits hold). Prints how
// the streams ended, the plain latency, the gateway's memory before, at the peak and after the
// streams ended, and its warnings (BENCH_LOG: a file to write the stack's log to).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgUrl, SERVE_REDIS_URL, withRedisDatabase } from '../../tests/helpers/env';
import { FIRST_ADMIN } from '../../tests/helpers/first-run';
import { http } from '../../tests/helpers/http';
import { type AdminCall, adminApi, freshStackStores } from '../../tests/helpers/stack-seed';
import { type StartedStack, startStackProcess, stopStackGroup } from '../../tests/setup/e2e-global';
import { startDripUpstream } from './drip-upstream';
import { type PlainProbe, startPlainProber } from './plain-prober';
import { ticksPerSecond } from './proc';
import { cpuSecondsBetween, rssMbByRole, stackReader } from './stack-processes';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 5_000);
const DRIP_SECONDS = Number(process.env.BENCH_DRIP_SECONDS ?? 120);
const RAMP_SECONDS = Number(process.env.BENCH_RAMP_SECONDS ?? 20);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
// Gateway processes (BENCH_GATEWAY_PROCESSES): one, as the open-streams target is per process.
const PROCESSES = Number(process.env.BENCH_GATEWAY_PROCESSES ?? 1);
// BENCH_WAVES=2: once the first wave has ended, as many streams again (memory: see below).
const WAVES = Number(process.env.BENCH_WAVES ?? 1);
// The model's name: an alias of the upstream's (the answer's model field renamed as it passes:
// the stream goes through JavaScript) unless BENCH_ALIAS=0 (passed through untouched).
const MODEL = process.env.BENCH_ALIAS === '0' ? 'drip-model' : 'drip';
// The response cache (on by default, as shipped: every stream is kept whole for it) unless BENCH_CACHE=0.
const CACHE = process.env.BENCH_CACHE !== '0';

type Ending = 'whole' | 'cut' | 'failed';

/** Reads one streamed answer to its end: whole with [DONE] and every token, else how it ended. */
async function oneStream(gatewayUrl: string, key: string): Promise<{ ending: Ending; detail: string }> {
  try {
    const response = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'drip' }] }),
    });
    if (response.status !== 200) return { ending: 'failed', detail: `status ${response.status}` };
    const text = await response.text();
    const tokens = text.match(/ token\d+/g)?.length ?? 0;
    if (text.includes('data: [DONE]') && tokens === DRIP_SECONDS) return { ending: 'whole', detail: '' };
    const error = /"message":"([^"]{0,80})/.exec(text)?.[1];
    return { ending: 'cut', detail: error ?? `${tokens} tokens, no [DONE]` };
  } catch (error) {
    return { ending: 'failed', detail: String(error).slice(0, 80) };
  }
}

/** STREAMS streams, opened evenly over RAMP_SECONDS; resolves once all are open. */
async function openStreams(gatewayUrl: string, key: string) {
  const started = Date.now();
  const streams: Promise<{ ending: Ending; detail: string }>[] = [];
  for (let i = 0; i < STREAMS; i++) {
    const due = started + (i * RAMP_SECONDS * 1000) / STREAMS;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    streams.push(oneStream(gatewayUrl, key));
  }
  return streams;
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};

const upstream = await startDripUpstream(DRIP_SECONDS);
const prober = await startPlainProber();
const database = 'sluice_bench_streams';
const redisUrl = withRedisDatabase(SERVE_REDIS_URL, 12);
await freshStackStores(pgUrl(database), redisUrl);
const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-streams-'));
let stack: StartedStack | undefined;
try {
  const stores = { DATABASE_URL: pgUrl(database), REDIS_URL: redisUrl };
  stack = await startStackProcess({ ...stores, SLUICE_GATEWAY_PROCESSES: String(PROCESSES) }, dataDir, {
    file: 'npm',
    args: ['run', '--silent', 'serve'],
    detached: true,
  });
  const { gatewayUrl } = stack;
  const init = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, {
    body: { admin: FIRST_ADMIN },
  });
  const api = adminApi(stack.consoleUrl, init.body.access_token as string);
  const provider = await api('POST', '/api/admin/providers', {
    name: 'drip',
    display_name: 'Drip',
    provider_type: 'openai',
    base_url: upstream.url,
    api_key: 'drip-key',
  });
  await api('POST', '/api/admin/models', {
    name: MODEL,
    routes: [{ provider_id: provider.body.id, upstream_model: 'drip-model' }],
  });
  const plainProvider = await api('POST', '/api/admin/providers', {
    name: 'plain',
    display_name: 'Plain',
    provider_type: 'openai',
    base_url: prober.upstreamUrl,
    api_key: 'plain-key',
  });
  await api('POST', '/api/admin/models', {
    name: 'plain',
    routes: [{ provider_id: plainProvider.body.id, upstream_model: 'plain-model' }],
  });
  if (!CACHE) await api('PATCH', '/api/admin/settings', { settings: { cache_ttl_seconds: 0 } });
  const key = (await api('POST', '/api/keys', { name: 'streams' })).body.key as string;
  const limited = (await api('POST', '/api/keys', { name: 'limited', rate_limit_rpm: 5 })).body.key as string;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const readStack = stackReader(stack.child.pid as number);
  const gatewayRss = () => rssMbByRole(readStack()).gateway;
  const before = gatewayRss();
  const startSnapshot = readStack();

  let peak = before;
  let peak2 = 0;
  const sampler = setInterval(() => {
    const rss = gatewayRss();
    if (peak2 > 0) peak2 = Math.max(peak2, rss);
    else peak = Math.max(peak, rss);
  }, 1_000);
  prober.start({ gatewayUrl, key, model: 'plain', pauseMs: 200 });

  const started = Date.now();
  const streams = await openStreams(gatewayUrl, key);
  console.log(`${STREAMS} streams opened in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const held = upstream.open();
  const limitedStatuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    const response = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${limited}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'limited' }] }),
    });
    await response.arrayBuffer();
    limitedStatuses.push(response.status);
  }
  const endings = await Promise.all(streams);
  const cpu = cpuSecondsBetween(startSnapshot, readStack(), ticksPerSecond());
  const runSeconds = (Date.now() - started) / 1000;
  const { probes, failed: plainFailed } = await prober.stop();
  const plain = probes.map((probe) => probe.ms);
  const atEnd = gatewayRss();
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const after = gatewayRss();
  // A second wave of as many streams: a peak no higher than the first's means the memory the
  // first wave's streams held went back to the runtime and was used again.
  let secondWave = '';
  if (WAVES > 1) {
    peak2 = after;
    const again = await Promise.all(await openStreams(gatewayUrl, key));
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const whole = again.filter((e) => e.ending === 'whole').length;
    secondWave = `; a second wave of ${STREAMS}: ${whole} whole, peak ${peak2.toFixed(0)} MB, ${gatewayRss().toFixed(0)} MB ${IDLE_SECONDS} s later`;
  }
  clearInterval(sampler);

  const count = (ending: Ending) => endings.filter((e) => e.ending === ending).length;
  const details = new Map<string, number>();
  for (const e of endings.filter((x) => x.ending !== 'whole'))
    details.set(e.detail, (details.get(e.detail) ?? 0) + 1);
  const output = stack.output();
  if (process.env.BENCH_LOG) writeFileSync(process.env.BENCH_LOG, output);
  const warnings = (pattern: RegExp) => output.match(pattern)?.length ?? 0;
  console.log(`\n| streams | served whole | cut | failed | held by the upstream at the peak |`);
  console.log('| ---: | ---: | ---: | ---: | ---: |');
  console.log(`| ${STREAMS} | ${count('whole')} | ${count('cut')} | ${count('failed')} | ${held} |`);
  for (const [detail, n] of details) console.log(`  ${n} × ${detail}`);
  console.log(
    `\nplain chat while streams were open: ${plain.length} answered, p50 ${pct(plain, 0.5).toFixed(1)} ms, ` +
      `p95 ${pct(plain, 0.95).toFixed(1)} ms, max ${pct(plain, 1).toFixed(1)} ms; ${plainFailed} failed`,
  );
  console.log(`  by phase: ${plainByPhase(probes, started).join('; ')}`);
  const timed = await gatewayTimed(api, plain.length);
  console.log(
    `  as the gateway timed them (the request log's latency_ms, from the handler's start; not the wait ` +
      `before the isolate took the request): ${timed.length} logged, p50 ${pct(timed, 0.5)}, ` +
      `p95 ${pct(timed, 0.95)}, max ${pct(timed, 1)} ms`,
  );
  // Each stream is its role chunk, DRIP_SECONDS tokens and one closing write.
  const chunks = STREAMS * (DRIP_SECONDS + 2);
  console.log(
    `gateway CPU while the streams ran (${runSeconds.toFixed(0)} s): ${cpu.gateway.toFixed(1)} s, ` +
      `${((cpu.gateway / runSeconds) * 100).toFixed(0)} % of a core on average, ` +
      `${((cpu.gateway * 1e6) / chunks).toFixed(0)} µs per streamed chunk (${chunks} chunks, ` +
      `the stream openings included); response cache ${CACHE ? 'on' : 'off'}`,
  );
  const passed = limitedStatuses.filter((s) => s === 200).length;
  console.log(`key limited to 5 a minute, 8 sent: ${passed} passed, statuses ${limitedStatuses.join(' ')}`);
  const perStream = ((peak - before) * 1024) / STREAMS;
  console.log(
    `gateway RSS: ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at the peak ` +
      `(~${perStream.toFixed(0)} KB a stream), ${atEnd.toFixed(0)} MB as the last ended, ` +
      `${after.toFixed(0)} MB ${IDLE_SECONDS} s later${secondWave}`,
  );
  console.log(
    `gateway warnings: limit counters unavailable ${warnings(/limit counters unavailable/g)}, ` +
      `cache write failed ${warnings(/cache write failed/gi)}, redis link ${warnings(/redis link/gi)}`,
  );
} finally {
  await stopStackGroup(stack);
  await upstream.close();
  await prober.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * The latencies the gateway logged for the plain chats (at most the `count` newest): a tail the
 * client saw beyond them was spent before the handler ran (the isolate busy or collecting its
 * heap, or the machine's other processes: the load generator and the upstream share its cores).
 */
async function gatewayTimed(api: AdminCall, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let offset = 0; offset < count; offset += 200) {
    const page = await api('GET', `/api/gateway/logs?model=plain&limit=200&offset=${offset}`);
    const entries = (page.body.entries ?? []) as Array<{ latency_ms: number }>;
    latencies.push(...entries.map((entry) => entry.latency_ms));
    if (entries.length < 200) break;
  }
  return latencies.slice(0, count);
}

/**
 * The plain latency while the streams opened (the ramp), while all were held, and while they
 * ended: where a tail comes from (openings, chunks, or the endings' log writes).
 */
function plainByPhase(probes: readonly PlainProbe[], started: number): string[] {
  const phases = [
    { name: 'opening', from: 0, to: RAMP_SECONDS },
    { name: 'held', from: RAMP_SECONDS, to: DRIP_SECONDS },
    { name: 'ending', from: DRIP_SECONDS, to: Number.POSITIVE_INFINITY },
  ];
  return phases.map(({ name, from, to }) => {
    const ms = probes
      .filter((probe) => probe.at - started >= from * 1000 && probe.at - started < to * 1000)
      .map((probe) => probe.ms);
    if (ms.length === 0) return `${name} none`;
    return `${name} ${ms.length}: p50 ${pct(ms, 0.5).toFixed(1)}, p95 ${pct(ms, 0.95).toFixed(1)} ms`;
  });
}
