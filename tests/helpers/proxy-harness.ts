import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { vi } from 'vitest';
import { createClickHouseRequestLogStore } from '../../shared/src/logs/requests/clickhouse-store';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import { createClickHouse } from '../../shared/src/stores/clickhouse';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { type ConsoleHarness, consoleHarness } from './console';
import { CLICKHOUSE_URL } from './env';
import { type ConsoleAnswer, configureFakeProviders } from './fake-providers';
import { type GatewayHarness, gatewayHarness } from './gateway';
import { appEnv, freshDatabase } from './stores';

export interface ProxyHarness {
  console: ConsoleHarness;
  gateway: GatewayHarness;
  fakes: FakeUpstreams;
  apiKey: string;
  keyId: string;
  /** The official clients, talking to the in-process gateway app. */
  openai: OpenAI;
  anthropic: Anthropic;
  /** The console API as the admin. */
  admin(method: string, path: string, body?: unknown): Promise<ConsoleAnswer>;
  /** Raw JSON through the gateway with the harness key. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** The request log rows of the harness key, newest first, once `count` exist. */
  logs(count: number): Promise<RequestLogRecord[]>;
  close(): Promise<void>;
}

/**
 * Console + gateway in-process over the real stores, the fake upstreams configured as one
 * provider per type, and an API key. Each test file passes its own database names.
 */
export async function proxyHarness(
  name: string,
  extraEnv: Record<string, string> = {},
): Promise<ProxyHarness> {
  const fakes = await startFakeUpstreams();
  const url = await freshDatabase(`sluice_it_${name}`);
  const env = appEnv(url, { CLICKHOUSE_DATABASE: `sluice_it_${name}`, ...extraEnv });
  const consoleApp = await consoleHarness(env);
  const gateway = gatewayHarness(env);
  const admin = {
    email: `admin@${name.replaceAll('_', '-')}.example`,
    display_name: 'Admin',
    password: 'proxy-admin-password',
  };
  const init = await consoleApp.call('POST', '/api/setup/initialize', { body: { admin } });
  const initBody = await init.text();
  if (init.status !== 200) throw new Error(`setup failed: ${init.status} ${initBody}`);
  const { access_token: token } = JSON.parse(initBody) as { access_token: string };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await consoleApp.call(method, path, { token, body });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  await configureFakeProviders(api, fakes);
  const key = (await api('POST', '/api/keys', { name: 'proxy tests' })).body as { id: string; key: string };
  const app = gateway.app;
  const gatewayFetch = ((input: string | URL | Request, init?: RequestInit) =>
    app.request(input instanceof Request ? input : String(input), init)) as typeof fetch;
  const store = createClickHouseRequestLogStore(
    createClickHouse({ url: CLICKHOUSE_URL, database: `sluice_it_${name}` }),
    {
      database: `sluice_it_${name}`,
    },
  );
  return {
    console: consoleApp,
    gateway,
    fakes,
    admin: api,
    apiKey: key.key,
    keyId: key.id,
    openai: new OpenAI({
      apiKey: key.key,
      baseURL: 'http://gateway.test/v1',
      fetch: gatewayFetch,
      maxRetries: 0,
    }),
    anthropic: new Anthropic({
      apiKey: key.key,
      baseURL: 'http://gateway.test',
      fetch: gatewayFetch,
      maxRetries: 0,
    }),
    post: (path, body, headers = {}) =>
      Promise.resolve(
        app.request(path, {
          method: 'POST',
          headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        }),
      ),
    logs: (count) =>
      vi.waitFor(
        async () => {
          const rows = await store.list({ apiKeyId: key.id, limit: 200 });
          if (rows.length < count) throw new Error(`${rows.length} of ${count} request log rows so far`);
          return rows;
        },
        { timeout: 10_000, interval: 100 },
      ),
    close: async () => {
      await fakes.close();
      await consoleApp.close();
    },
  };
}
