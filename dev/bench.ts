// `npm run bench`: starts the stack (real stores when DATABASE_URL/REDIS_URL are set, embedded
// otherwise) on spare ports and prints latency and throughput of the foundation's paths and
// of the model proxy against a fake upstream (see dev/bench/proxy.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../self-host/process/ports';
import { formatFigures, maxThroughput, type Send } from './bench/measure';
import { benchProxy } from './bench/proxy';
import { stackOptionsFromEnv, startStack } from './stack';

interface Probe {
  name: string;
  request: Send;
}

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

async function measure(probe: Probe, total: number, concurrency = CONCURRENCY): Promise<string> {
  return formatFigures(probe.name, await maxThroughput(probe.request, total, concurrency));
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
  // argon2id dominates login; fewer samples keep the run short. At most 5 logins of one email
  // from one IP may be in flight at once (the rest are refused as possible guessing).
  const login: Probe = {
    name: 'console POST /api/auth/login',
    request: () =>
      fetch(`${stack.consoleUrl}/api/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: admin.email, password: admin.password }),
      }),
  };
  console.log(await measure(login, 40, Math.min(CONCURRENCY, 4)));
  await benchProxy(stack.gatewayUrl, stack.consoleUrl, token);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
