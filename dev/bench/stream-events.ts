// `npm run bench:events`: what one huge streamed event costs the gateway, and what it does to
// everyone else meanwhile. Starts `npm run serve` on stores of its own (Postgres
// sluice_bench_events, Redis db 9, ClickHouse when it answers) with the team's fake vendors
// (tests/fakes), streams one answer whose text is a single event of 1, 4 and 16 MiB through an
// alias (renamed as it passes) and through translation (Messages client, OpenAI route), and
// sends plain requests every 20 ms while each is under way. Prints a table.
// `npm run bench:events -- --soak <minutes>`: large answers (1, 2, 4 and 10 MiB; streamed
// renamed, streamed translated, whole) back to back for that long, then 30 s idle, printing
// the gateway's (workerd's) RSS every minute: where its memory settles.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../self-host/process/ports';
import { startFakeUpstreams } from '../../tests/fakes/server';
import { resetStores } from './bench-stores';
import { cleanupAll, onCleanup, stopOnSignals } from './cleanup';
import { launchStack } from './stack-launch';
import { rssMbByRole, stackReader } from './stack-processes';

const SIZES_MIB = [1, 4, 16];
const SOAK_SIZES_MIB = [1, 2, 4, 10];
const PLAIN_EVERY_MS = 20;
const say = (line: string) => console.log(`bench:events: ${line}`);

interface Stack {
  gatewayUrl: string;
  key: string;
  /** The gateway's resident memory now (MiB). */
  gatewayRssMb(): number;
  /** Forgets what the fake vendors recorded (they keep every request and answer, for tests). */
  forgetRecorded(): void;
}

async function json(url: string, init: RequestInit & { token?: string; body?: string }) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(url, { ...init, headers });
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function startStack(): Promise<Stack> {
  const stores = await resetStores({
    databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sluice_bench_events',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9',
    clickhouseUrl: process.env.BENCH_CLICKHOUSE_URL ?? 'http://127.0.0.1:8123',
  });
  const fakes = await startFakeUpstreams();
  onCleanup(() => fakes.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-events-'));
  onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  const [gatewayPort, consolePort] = [await freePort(), await freePort()];
  const stack = await launchStack({
    mode: 'serve',
    cpus: null,
    env: {
      ...stores.env,
      SLUICE_GATEWAY_PORT: String(gatewayPort),
      SLUICE_CONSOLE_PORT: String(consolePort),
      SLUICE_DATA_DIR: dataDir,
      // Above the largest event measured: the cost of reading it, not of refusing it.
      SLUICE_MAX_STREAM_EVENT_BYTES: String(64 * 1024 * 1024),
    },
    gatewayPort,
    consolePort,
    logFile: join(dataDir, 'stack.log'),
  });
  const admin = { email: 'bench@example.com', display_name: 'Bench', password: 'bench-password-1' };
  const init = await json(`${stack.consoleUrl}/api/setup/initialize`, {
    method: 'POST',
    body: JSON.stringify({ admin }),
  });
  const token = String(init.access_token);
  const consoleCall = (path: string, body: unknown) =>
    json(`${stack.consoleUrl}${path}`, { method: 'POST', token, body: JSON.stringify(body) });
  const provider = await consoleCall('/api/admin/providers', {
    name: 'fake-openai',
    display_name: 'Fake OpenAI',
    provider_type: 'openai',
    base_url: fakes.baseUrlFor('openai'),
    api_key: fakes.apiKeyFor('openai'),
  });
  const route = (upstream_model: string) => [{ provider_id: provider.id, upstream_model }];
  await consoleCall('/api/admin/models', { name: 'plain', routes: route('test-model') });
  for (const mib of new Set([...SIZES_MIB, ...SOAK_SIZES_MIB])) {
    await consoleCall('/api/admin/models', { name: `event-${mib}`, routes: route(`huge-${mib * 1024}k`) });
  }
  const key = String((await consoleCall('/api/keys', { name: 'bench' })).key);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const read = stackReader(stack.supervisor);
  return {
    gatewayUrl: stack.gatewayUrl,
    key,
    gatewayRssMb: () => rssMbByRole(read()).gateway,
    forgetRecorded: () => {
      fakes.requests.length = 0;
    },
  };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

async function plainLatency(stack: Stack): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${stack.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'plain', messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return performance.now() - started;
}

/** One huge answer, with plain requests every 20 ms meanwhile. */
async function measure(stack: Stack, path: string, body: unknown) {
  const plain: number[] = [];
  let running = true;
  const background = (async () => {
    while (running) {
      plain.push(await plainLatency(stack));
      await new Promise((resolve) => setTimeout(resolve, PLAIN_EVERY_MS));
    }
  })();
  const started = performance.now();
  const res = await fetch(`${stack.gatewayUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  const ms = performance.now() - started;
  running = false;
  await background;
  return { ms, bytes, status: res.status, plain };
}

/** The streamed (renamed, translated) and whole answers of one size, one after another. */
function largeAnswers(model: string): Array<[string, string, unknown]> {
  const messages = [{ role: 'user', content: 'hi' }];
  return [
    ['renamed (chat)', '/v1/chat/completions', { model, stream: true, messages }],
    ['translated (messages)', '/v1/messages', { model, stream: true, max_tokens: 10, messages }],
    ['whole (chat)', '/v1/chat/completions', { model, messages }],
  ];
}

async function eventTable(stack: Stack): Promise<void> {
  const baseline: number[] = [];
  for (let i = 0; i < 50; i++) baseline.push(await plainLatency(stack));
  say(
    `plain request alone: p50 ${percentile(baseline, 0.5).toFixed(1)} ms, max ${Math.max(...baseline).toFixed(1)} ms`,
  );
  console.log(
    '\n| event | path | answer | total ms | plain p50 / max meanwhile (n) |\n|---|---|---|---|---|',
  );
  for (const mib of SIZES_MIB) {
    for (const [way, path, body] of largeAnswers(`event-${mib}`).slice(0, 2)) {
      const run = await measure(stack, path, body);
      const meanwhile = `${percentile(run.plain, 0.5).toFixed(1)} / ${Math.max(...run.plain).toFixed(1)} ms (${run.plain.length})`;
      console.log(
        `| ${mib} MiB | ${way} | ${run.status}, ${(run.bytes / 1048576).toFixed(1)} MiB | ${run.ms.toFixed(0)} | ${meanwhile} |`,
      );
    }
  }
}

async function soak(stack: Stack, minutes: number): Promise<void> {
  const requests = SOAK_SIZES_MIB.flatMap((mib) => largeAnswers(`event-${mib}`));
  say(
    `soak: ${minutes} min of large answers, then 30 s idle; gateway RSS at start ${stack.gatewayRssMb().toFixed(0)} MiB`,
  );
  console.log('\n| minute | answers | MiB sent | gateway RSS (MiB) |\n|---|---|---|---|');
  const started = Date.now();
  let answers = 0;
  let mib = 0;
  for (let minute = 1; minute <= minutes; minute++) {
    while (Date.now() - started < minute * 60_000) {
      const [, path, body] = requests[answers % requests.length]!;
      const res = await fetch(`${stack.gatewayUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      mib += (await res.arrayBuffer()).byteLength / 1048576;
      answers++;
      stack.forgetRecorded();
    }
    console.log(`| ${minute} | ${answers} | ${mib.toFixed(0)} | ${stack.gatewayRssMb().toFixed(0)} |`);
  }
  await new Promise((resolve) => setTimeout(resolve, 30_000));
  console.log(`| idle 30 s | ${answers} | ${mib.toFixed(0)} | ${stack.gatewayRssMb().toFixed(0)} |`);
}

stopOnSignals();
const soakAt = process.argv.indexOf('--soak');
const soakMinutes = soakAt === -1 ? null : Number(process.argv[soakAt + 1] ?? 10);
try {
  say('starting npm run serve with the fake vendors');
  const stack = await startStack();
  if (soakMinutes === null) await eventTable(stack);
  else await soak(stack, soakMinutes);
} finally {
  await cleanupAll();
}
process.exit(0);
