import Redis from 'ioredis';
import type { FakeUpstreams } from '../fakes/server';
import { recreateDatabase } from './databases';
import { http } from './http';

/** A stack of its own starts from nothing: its Postgres database re-created, its Redis db flushed. */
export async function freshStackStores(databaseUrl: string, redisUrl: string): Promise<void> {
  await recreateDatabase(databaseUrl);
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  redis.disconnect();
}

export type AdminCall = (method: string, path: string, body?: unknown) => ReturnType<typeof http>;

/** The console API as the given admin. */
export function adminApi(consoleUrl: string, token: string): AdminCall {
  return (method, path, body) => http(method, `${consoleUrl}${path}`, { token, body });
}

/** One model routed to the fake OpenAI upstream (provider `fake-openai`); returns the provider. */
export async function seedFakeOpenAiModel(api: AdminCall, fakes: FakeUpstreams, model: string) {
  const provider = await api('POST', '/api/admin/providers', {
    name: 'fake-openai',
    display_name: 'Fake OpenAI',
    provider_type: 'openai',
    base_url: fakes.baseUrlFor('openai'),
    api_key: fakes.apiKeyFor('openai'),
  });
  if (provider.status !== 201)
    throw new Error(`provider: ${provider.status} ${JSON.stringify(provider.body)}`);
  const created = await api('POST', '/api/admin/models', {
    name: model,
    routes: [{ provider_id: provider.body.id, upstream_model: 'test-model' }],
  });
  if (created.status !== 201) throw new Error(`model: ${created.status} ${JSON.stringify(created.body)}`);
  return provider;
}
