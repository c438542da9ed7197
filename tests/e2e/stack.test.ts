// SPEC: Setup, Authentication, Console health, gateway health — over HTTP against the stack
// started as `npm start` starts it, with real Postgres, Redis and ClickHouse.
import { describe, expect, inject, it } from 'vitest';
import { walkConsoleJourney } from '../helpers/console-journey';
import { walkFirstRun } from '../helpers/first-run';
import { http } from '../helpers/http';

const { gatewayUrl, consoleUrl } = inject('stack');

describe('the running stack (real stores)', () => {
  let adminToken = '';
  it('walks the first run: setup, login, me, gateway readiness, JWT on the gateway', async () => {
    adminToken = (await walkFirstRun(consoleUrl, gatewayUrl)).accessToken;
  });

  it('manages provider, model, key lifecycle and settings, all found in the audit search', async () => {
    expect(adminToken, 'needs the first run above').not.toBe('');
    await walkConsoleJourney(consoleUrl, gatewayUrl, adminToken);
  });

  it('reports every store healthy on the console, ClickHouse included', async () => {
    const health = await http('GET', `${consoleUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      services: { postgres: 'ok', redis: 'ok', clickhouse: 'ok' },
    });
  });

  it('answers gateway liveness and the health root', async () => {
    expect((await http('GET', `${gatewayUrl}/health`)).body).toEqual({ status: 'ok' });
    expect((await http('GET', `${gatewayUrl}/health/live`)).body).toEqual({ status: 'alive' });
  });

  it('answers bad input with 4xx envelopes over the wire, never 500', async () => {
    const malformed = await fetch(`${consoleUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const huge = await fetch(`${consoleUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x'.repeat(1_100_000) }),
    });
    expect(huge.status).toBe(413);
    const unknown = await http('GET', `${gatewayUrl}/v1/unknown`, { token: 'bad' });
    expect(unknown.status).toBe(401);
  });
});
