// `npm run bench:tracing`: what trace export costs a plain request. Four `npm run serve` stacks
// on real Postgres and Redis, the same but for tracing: off; exporting to a collector that
// answers; to one that accepts the connection and never answers (blackholed); to a closed
// port (down). One client sends the same non-streamed chat to each in turn (interleaved, so
// the machine's noise falls on all four alike) and prints the latency of each, with the spans
// each gateway dropped. Upstream: the test suite's fake OpenAI. Options: BENCH_REQUESTS (400).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeUpstreams } from '../../tests/fakes/server';
import { pgUrl, SERVE_REDIS_URL, withRedisDatabase } from '../../tests/helpers/env';
import { FIRST_ADMIN } from '../../tests/helpers/first-run';
import { http } from '../../tests/helpers/http';
import { startOtlpReceiver } from '../../tests/helpers/otlp-receiver';
import { adminApi, freshStackStores, seedFakeOpenAiModel } from '../../tests/helpers/stack-seed';
import { type StartedStack, startStackProcess, stopStackGroup } from '../../tests/setup/e2e-global';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const WARMUP = 50;

const receiver = await startOtlpReceiver();
const blackhole = await startOtlpReceiver();
blackhole.setMode('hang');
// A port that refuses: bound, then closed.
const closedPort = await new Promise<number>((resolve) => {
  const server = createServer();
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    server.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
  });
});
const fakes = await startFakeUpstreams();

const MODES: { name: string; env: Record<string, string> }[] = [
  { name: 'tracing off', env: {} },
  { name: 'collector answers', env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } },
  { name: 'collector blackholed', env: { OTEL_EXPORTER_OTLP_ENDPOINT: blackhole.url } },
  { name: 'collector down', env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closedPort}` } },
];

interface Running {
  name: string;
  stack: StartedStack;
  dataDir: string;
  key: string;
  took: number[];
}

const running: Running[] = [];
try {
  for (const [i, mode] of MODES.entries()) {
    const database = `sluice_bench_tracing_${i}`;
    const redisUrl = withRedisDatabase(SERVE_REDIS_URL, 10 + i);
    await freshStackStores(pgUrl(database), redisUrl);
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-tracing-'));
    const stack = await startStackProcess(
      { DATABASE_URL: pgUrl(database), REDIS_URL: redisUrl, SLUICE_QUIET: '1', ...mode.env },
      dataDir,
      { file: 'npm', args: ['run', '--silent', 'serve'], detached: true },
    );
    const init = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, {
      body: { admin: FIRST_ADMIN },
    });
    const api = adminApi(stack.consoleUrl, init.body.access_token as string);
    await seedFakeOpenAiModel(api, fakes, 'bench-model');
    const key = (await api('POST', '/api/keys', { name: 'bench' })).body.key as string;
    running.push({ name: mode.name, stack, dataDir, key, took: [] });
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    // A new prompt each round: every request goes to the upstream (none is a cache hit).
    const body = JSON.stringify({
      model: 'bench-model',
      messages: [{ role: 'user', content: `one two three ${i}` }],
    });
    for (const target of running) {
      const started = performance.now();
      const response = await fetch(`${target.stack.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
        body,
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${target.name}: status ${response.status}`);
      if (i >= WARMUP) target.took.push(performance.now() - started);
    }
  }
  // Long enough for a blackholed export to be given up (OTEL_EXPORTER_OTLP_TIMEOUT, 10 s), then
  // one more request each: the drop counts ride on an isolate's next metrics flush.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  for (const target of running) {
    await fetch(`${target.stack.gatewayUrl}/v1/models`, {
      headers: { authorization: `Bearer ${target.key}` },
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const pct = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  console.log(`\n${REQUESTS} plain chat requests per mode, interleaved, after ${WARMUP} warm-up each\n`);
  console.log('| mode | p50 ms | p95 ms | mean ms | spans dropped |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const target of running) {
    const sorted = [...target.took].sort((a, b) => a - b);
    const mean = sorted.reduce((sum, v) => sum + v, 0) / sorted.length;
    const metrics = await (await fetch(`${target.stack.gatewayUrl}/metrics`)).text();
    const dropped = [...metrics.matchAll(/^sluice_otel_spans_dropped_total\{[^}]*\} (\S+)$/gm)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
    console.log(
      `| ${target.name} | ${pct(sorted, 0.5).toFixed(2)} | ${pct(sorted, 0.95).toFixed(2)} | ${mean.toFixed(2)} | ${dropped} |`,
    );
  }
  console.log(`\nspans the answering collector received: ${receiver.spans().length}`);
} finally {
  for (const target of running) {
    await stopStackGroup(target.stack);
    rmSync(target.dataDir, { recursive: true, force: true });
  }
  await Promise.all([fakes.close(), receiver.close(), blackhole.close()]);
}
