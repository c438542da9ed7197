// `npm run bench`: starts the stack (real stores when DATABASE_URL/REDIS_URL are set, embedded
// otherwise) on spare ports and prints latency and throughput of the foundation's paths.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stackOptionsFromEnv, startStack } from './stack';
import { freePort } from './stack/ports';

interface Probe {
  name: string;
  request: () => Promise<Response>;
}

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

async function measure(probe: Probe, total: number): Promise<string> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next++;
      const t0 = performance.now();
      const res = await probe.request();
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (!res.ok) failures++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  return [
    probe.name.padEnd(36),
    `${(total / seconds).toFixed(0).padStart(6)} req/s`,
    `p50 ${pct(50).toFixed(2).padStart(7)} ms`,
    `p95 ${pct(95).toFixed(2).padStart(7)} ms`,
    `p99 ${pct(99).toFixed(2).padStart(7)} ms`,
    failures ? `FAILURES ${failures}` : '',
  ].join('  ');
}

const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
const stack = await startStack({
  ...stackOptionsFromEnv({ ...process.env, SLUICE_QUIET: '1' }),
  gatewayPort: await freePort(),
  consolePort: await freePort(),
  dataDir,
});
try {
  console.log(stack.banner);
  const json = { 'content-type': 'application/json' };
  const admin = { email: 'bench@example.com', display_name: 'Bench', password: 'bench-password-123' };
  const init = await fetch(`${stack.consoleUrl}/api/setup/initialize`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ admin }),
  });
  const { access_token: token } = (await init.json()) as { access_token: string };
  const auth = { authorization: `Bearer ${token}` };
  const probes: Probe[] = [
    { name: 'gateway GET /health', request: () => fetch(`${stack.gatewayUrl}/health`) },
    {
      name: 'gateway GET /health/ready (pg+redis)',
      request: () => fetch(`${stack.gatewayUrl}/health/ready`),
    },
    {
      name: 'gateway GET /v1/models (JWT + 1 query)',
      request: () => fetch(`${stack.gatewayUrl}/v1/models`, { headers: auth }),
    },
    {
      name: 'console GET /api/auth/me',
      request: () => fetch(`${stack.consoleUrl}/api/auth/me`, { headers: auth }),
    },
    { name: 'console GET /api/health', request: () => fetch(`${stack.consoleUrl}/api/health`) },
  ];
  console.log(`\n${TOTAL} requests per probe, concurrency ${CONCURRENCY} (after 50 warm-up requests)`);
  for (const probe of probes) {
    await measure(probe, 50);
    console.log(await measure(probe, TOTAL));
  }
  // argon2id dominates login; fewer samples keep the run short.
  const login: Probe = {
    name: 'console POST /api/auth/login',
    request: () =>
      fetch(`${stack.consoleUrl}/api/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: admin.email, password: admin.password }),
      }),
  };
  console.log(await measure(login, 40));
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
