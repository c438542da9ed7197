import { expect, vi } from 'vitest';
import { http } from './http';

const GRACE_SECONDS = 2;

/**
 * The console's first journey, walked over HTTP as a new admin would after the first run:
 * provider → model route → key → list → rotate (short grace) → revoke → setting → audit.
 */
export async function walkConsoleJourney(consoleUrl: string, gatewayUrl: string, adminToken: string) {
  const api = (method: string, path: string, body?: unknown) =>
    http(method, `${consoleUrl}${path}`, { token: adminToken, body });
  const gatewayModels = (key: string) => http('GET', `${gatewayUrl}/v1/models`, { token: key });

  const provider = await api('POST', '/api/admin/providers', {
    name: 'journey-openai',
    display_name: 'Journey OpenAI',
    provider_type: 'openai',
    base_url: 'https://api.openai.example/v1',
    api_key: 'sk-journey-secret-value',
  });
  expect(provider.status, JSON.stringify(provider.body)).toBe(201);
  expect(JSON.stringify(provider.body)).not.toContain('sk-journey-secret-value');
  const model = await api('POST', '/api/admin/models', {
    name: 'journey-model',
    routes: [{ provider_id: provider.body.id, upstream_model: 'gpt-4o-mini' }],
  });
  expect(model.status, JSON.stringify(model.body)).toBe(201);

  const grace = await api('PATCH', '/api/admin/settings', {
    settings: { api_key_rotation_grace_seconds: GRACE_SECONDS },
  });
  expect(grace.status, JSON.stringify(grace.body)).toBe(200);
  const keys = await api('GET', '/api/admin/settings/category/keys');
  expect(keys.body.api_key_rotation_grace_seconds).toBe(GRACE_SECONDS);

  const created = await api('POST', '/api/keys', { name: 'journey key' });
  expect(created.status).toBe(201);
  const firstValue = created.body.key as string;
  expect(firstValue).toMatch(/^sluice-[A-Za-z0-9_-]{43}$/);
  const listed = await api('GET', '/api/keys');
  expect(listed.body.map((k: { id: string }) => k.id)).toContain(created.body.id);
  expect(JSON.stringify(listed.body)).not.toContain(firstValue);
  expect(listed.body[0]).not.toHaveProperty('key');

  const served = await gatewayModels(firstValue);
  expect(served.status).toBe(200);
  expect(served.body.data.map((m: { id: string }) => m.id)).toContain('journey-model');

  const rotated = await api('POST', `/api/keys/${created.body.id}/rotate`);
  expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
  const secondValue = rotated.body.key as string;
  expect(secondValue).not.toBe(firstValue);
  expect((await gatewayModels(firstValue)).status).toBe(200);
  expect((await gatewayModels(secondValue)).status).toBe(200);
  const graceEnds = Date.parse(rotated.body.grace_period_ends_at);
  expect(graceEnds - Date.now()).toBeLessThanOrEqual(GRACE_SECONDS * 1000);
  // A real grace period, on the gateway's clock: the old value is refused once it is over, not before.
  await vi.waitFor(async () => expect((await gatewayModels(firstValue)).status).toBe(401), {
    timeout: GRACE_SECONDS * 1000 + 5_000,
    interval: 100,
  });
  expect(Date.now()).toBeGreaterThanOrEqual(graceEnds);
  expect((await gatewayModels(secondValue)).status).toBe(200);

  expect((await api('DELETE', `/api/keys/${created.body.id}`)).status).toBe(204);
  const refused = await gatewayModels(secondValue);
  expect(refused).toMatchObject({ status: 401, body: { error: { type: 'authentication_error' } } });

  for (const action of [
    'provider.create',
    'model.create',
    'settings.update',
    'key.create',
    'key.rotate',
    'key.revoke',
  ]) {
    const found = await api('GET', `/api/audit/logs?q=${encodeURIComponent(action)}`);
    expect(found.status).toBe(200);
    const actions = found.body.entries.map((e: { action: string }) => e.action);
    expect(actions, `audit search for ${action}`).toContain(action);
  }
  const keyTrail = await api('GET', `/api/audit/logs?q=${created.body.id}`);
  expect(keyTrail.body.entries.map((e: { action: string }) => e.action)).toEqual([
    'key.revoke',
    'key.rotate',
    'key.create',
  ]);
  expect(JSON.stringify(keyTrail.body)).not.toContain(firstValue);
}
