// Issue: embedded-mode smoke — `npm start` with no store configured uses PGlite and an
// in-memory cache, labels them, survives a restart with its data, and stops on Ctrl-C.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startFakeUpstreams } from '../fakes/server';
import { walkFirstRun } from '../helpers/first-run';
import { http } from '../helpers/http';
import { adminApi, seedFakeOpenAiModel } from '../helpers/stack-seed';
import { interrupt, startStackProcess } from '../setup/e2e-global';

// A data directory that does not exist yet, as on a fresh clone.
const parent = mkdtempSync(join(tmpdir(), 'sluice-embedded-'));
const dataDir = join(parent, 'not-yet', '.sluice');
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('embedded defaults', () => {
  // Three stacks started one after another: more than the project's 60 s on a busy machine.
  it('start, initialize, log in, stop on Ctrl-C, and keep the data across a restart', async () => {
    const first = await startStackProcess({}, dataDir);
    try {
      expect(first.output()).toContain('EMBEDDED PGlite');
      expect(first.output()).toContain('not for production');
      expect(first.output()).toContain('the first visit runs the setup wizard');
      await walkFirstRun(first.consoleUrl, first.gatewayUrl);
    } finally {
      expect(await interrupt(first)).toBe(0);
    }
    // Ctrl-C stopped everything: nothing answers on either port any more.
    for (const url of [first.gatewayUrl, first.consoleUrl]) {
      const refused = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).catch(
        (e: Error) => e,
      );
      expect((refused as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    }

    // Counters lost with the in-memory store are rebuilt from the log soon after a start.
    const restartEnv = { SLUICE_COUNTER_REBUILD_DELAY_MS: '500' };
    const second = await startStackProcess(restartEnv, dataDir);
    let counted: Counted[] = [];
    try {
      // Restarted with its admin: the banner no longer promises the setup wizard.
      expect(second.output()).toContain('(open in a browser and sign in)');
      expect(second.output()).not.toContain('setup wizard');
      const status = await http('GET', `${second.consoleUrl}/api/setup/status`);
      expect(status.body).toEqual({
        initialized: true,
        needs_setup: false,
        site_name: 'Sluice',
        gateway_base_url: '',
      });
      const login = await http('POST', `${second.consoleUrl}/api/auth/login`, {
        body: { email: 'first@example.com', password: 'first-run-password' },
      });
      expect(login.status).toBe(200);
      const me = await http('GET', `${second.consoleUrl}/api/auth/me`, { token: login.body.access_token });
      expect(me.status).toBe(200);
      const notices = () => second.output().match(/not for production/g)?.length ?? 0;
      const atStart = notices();
      counted = await expectLimitsAndUsage(second.consoleUrl, second.gatewayUrl, login.body.access_token);
      // The embedded stores' notice is printed at start, never per request.
      expect(notices()).toBe(atStart);
      expect(second.output()).not.toMatch(/unsupported reply type|limit counters unavailable/);
    } finally {
      expect(await interrupt(second)).toBe(0);
    }

    // After a restart the in-memory store starts empty; the day and month counters come back
    // (rebuilt from the request log).
    const third = await startStackProcess(restartEnv, dataDir);
    try {
      for (const { key, usage } of counted) {
        expect(await usageOnceRebuilt(third.gatewayUrl, key, usage), third.output()).toEqual(usage);
      }
      expect(third.output()).toContain('limit counters rebuilt from the request log');
    } finally {
      expect(await interrupt(third)).toBe(0);
    }
  }, 300_000);
});

interface Usage {
  requests_today: number;
  requests_month: number;
  tokens_today: number;
  tokens_month: number;
}
interface Counted {
  key: string;
  usage: Usage;
}

async function usageOf(gatewayUrl: string, key: string): Promise<Usage> {
  const answer = await http('GET', `${gatewayUrl}/v1/usage`, { token: key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.usage;
}

/** The key's usage once it reads as `expected` (the rebuild ran), or after 20 s as it is. */
async function usageOnceRebuilt(gatewayUrl: string, key: string, expected: Usage): Promise<Usage> {
  let usage = await usageOf(gatewayUrl, key);
  await vi
    .waitFor(
      async () => {
        usage = await usageOf(gatewayUrl, key);
        expect(usage).toEqual(expected);
      },
      { timeout: 20_000, interval: 250 },
    )
    .catch(() => undefined);
  return usage;
}

/**
 * Limits count and /v1/usage answers on the in-memory store, as on Redis. Returns the
 * keys used and their usage.
 */
async function expectLimitsAndUsage(
  consoleUrl: string,
  gatewayUrl: string,
  token: string,
): Promise<Counted[]> {
  const fakes = await startFakeUpstreams();
  try {
    const api = adminApi(consoleUrl, token);
    await seedFakeOpenAiModel(api, fakes, 'embedded-model');
    const key = (await api('POST', '/api/keys', { name: 'embedded', rate_limit_rpm: 2 })).body.key;
    const chat = () =>
      http('POST', `${gatewayUrl}/v1/chat/completions`, {
        token: key,
        body: { model: 'embedded-model', messages: [{ role: 'user', content: 'hi' }] },
      });
    const answers = [await chat(), await chat(), await chat()];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining-requests'))).toEqual(['1', '0', null]);
    const usage = await http('GET', `${gatewayUrl}/v1/usage`, { token: key });
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body.scope).toBe('key');
    // The refused third request counts against nothing.
    expect(usage.body.usage).toMatchObject({ requests_today: 2, requests_month: 2 });
    const streams = await expectStreamedTokensCounted(api, gatewayUrl);
    // Read after the streams: by then the first key's tokens are settled too.
    const counted = [
      { key, usage: await usageOf(gatewayUrl, key) },
      { key: streams, usage: await usageOf(gatewayUrl, streams) },
    ];
    expect(counted.map((c) => c.usage.tokens_today > 0)).toEqual([true, true]);
    return counted;
  } finally {
    await fakes.close();
  }
}

/** Streamed answers settle their tokens on the embedded store as on Redis. */
async function expectStreamedTokensCounted(
  api: ReturnType<typeof adminApi>,
  gatewayUrl: string,
): Promise<string> {
  const key = (await api('POST', '/api/keys', { name: 'streams', rate_limit_rpm: 100 })).body.key;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${gatewayUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.text();
  };
  const prompt = [{ role: 'user', content: 'count these five words' }];
  await post('/v1/chat/completions', { model: 'embedded-model', stream: true, messages: prompt });

  await post('/v1/messages', { model: 'embedded-model', stream: true, max_tokens: 20, messages: prompt });
  // The fake counts words: 4 in, `echo: …` 5 out, for each of the two (counted after the answers).
  await expect
    .poll(async () => (await http('GET', `${gatewayUrl}/v1/usage`, { token: key })).body.usage, {
      timeout: 10_000,
      interval: 200,
    })
    .toMatchObject({ requests_today: 2, tokens_today: 18 });
  return key;
}
