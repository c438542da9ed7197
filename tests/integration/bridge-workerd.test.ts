// Local wiring (docs/architecture.md): the official drivers reach the store bridge from inside workerd.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { unstable_startWorker } from 'wrangler';
import { appEnv, freshDatabase } from '../helpers/stores';

type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;
let worker: Worker;

beforeAll(async () => {
  const env = appEnv(await freshDatabase('sluice_it_workerd'));
  worker = await unstable_startWorker({
    name: 'driver-probe',
    entrypoint: join(import.meta.dirname, '../fixtures/driver-probe-worker.ts'),
    compatibilityDate: '2026-04-01',
    bindings: Object.fromEntries(
      ['DATABASE_URL', 'NEON_LOCAL_HTTP', 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN'].map(
        (name) => [name, { type: 'plain_text' as const, value: env[name]! }],
      ),
    ),
    dev: {
      server: { hostname: '127.0.0.1', port: 0 },
      inspector: false,
      watch: false,
      logLevel: 'warn',
      persist: false,
    },
  });
  await worker.ready;
}, 120_000);

afterAll(async () => {
  await worker?.dispose();
});

describe('official drivers inside workerd through the store bridge', () => {
  it('run Neon HTTP statements and a transaction, and Upstash commands', async () => {
    expect(inject('sidecarEnv').NEON_LOCAL_HTTP).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sql$/);
    const response = await worker.fetch('http://probe/');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.error, String(body.stack)).toBeUndefined();
    expect(body.http).toEqual({ text: "it's ✓", answer: 42, arr: [1, 2], in_tx: true });
    expect(body.redis).toMatchObject({ piped: [expect.any(Number), 'héllo'], evaluated: ['k', 'v'] });
  });
});
