/**
 * Configures a fresh stack through the console API as the team benchmark's sluice-up.sh does:
 * an admin, two OpenAI-type providers on the fake upstream (`/v1` answers JSON, `/sse/v1`
 * streams), models `bench-json` and `bench-stream` with route caps, limits on the owner's role
 * (with a daily budget) and on the key, and the response cache off (every request goes
 * upstream; a cache would answer the bench's one repeated body itself). Request logging is
 * always on. Every limit is far above what the bench sends: they cost work, never a 429.
 */
const ADMIN = { email: 'bench@example.com', display_name: 'Bench', password: 'bench-password-123' };
const HUGE = 100_000_000;

export interface BenchSetup {
  /** The API key wrk sends. */
  apiKey: string;
}

type Call = (method: string, path: string, body?: unknown) => Promise<unknown>;

function consoleClient(consoleUrl: string, token?: string): Call {
  return async (method, path, body) => {
    const res = await fetch(`${consoleUrl}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`console ${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : null;
  };
}

export async function configureStack(consoleUrl: string, upstreamUrl: string): Promise<BenchSetup> {
  const init = (await consoleClient(consoleUrl)('POST', '/api/setup/initialize', { admin: ADMIN })) as {
    access_token: string;
  };
  const call = consoleClient(consoleUrl, init.access_token);
  const provider = async (name: string, path: string) =>
    (
      (await call('POST', '/api/admin/providers', {
        name,
        display_name: name,
        provider_type: 'openai',
        base_url: `${upstreamUrl}${path}`,
        api_key: 'sk-bench',
      })) as { id: string }
    ).id;
  const model = (name: string, providerId: string) =>
    call('POST', '/api/admin/models', {
      name,
      input_price_per_mtok: 0.15,
      output_price_per_mtok: 0.6,
      routes: [{ provider_id: providerId, upstream_model: 'gpt-4o-mini', rpm_cap: HUGE, tpm_cap: HUGE * 10 }],
    });
  await model('bench-json', await provider('benchup', '/v1'));
  await model('bench-stream', await provider('benchsse', '/sse/v1'));
  await call('PATCH', '/api/admin/settings', { settings: { cache_ttl_seconds: 0 } });
  await limitOwnerRole(call);
  const key = (await call('POST', '/api/keys', { name: 'bench', rate_limit_rpm: HUGE / 10 })) as {
    id: string;
    key: string;
  };
  await call('PUT', `/api/admin/limits/api_key/${key.id}/rules`, {
    rules: [
      { kind: 'requests', window: '5m', limit: HUGE },
      { kind: 'tokens', window: '1d', limit: HUGE * 1000 },
    ],
  });
  return { apiKey: key.key };
}

/** The owner's limits come from the role named like their user role (admin): rules and a daily budget. */
async function limitOwnerRole(call: Call): Promise<void> {
  const limits = {
    rules: [
      { kind: 'requests', window: '1m', limit: HUGE },
      { kind: 'tokens', window: '1h', limit: HUGE * 1000 },
    ],
    budgets: [{ period: 'daily', limit_tokens: HUGE * 10_000 }],
  };
  const roles = (await call('GET', '/api/admin/roles?limit=200')) as Array<{ id: string; name: string }>;
  const admin = roles.find((role) => role.name === 'admin');
  if (admin) await call('PATCH', `/api/admin/roles/${admin.id}`, limits);
  else await call('POST', '/api/admin/roles', { name: 'admin', ...limits });
}
