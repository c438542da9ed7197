/**
 * What the platform bench asks of the console API: the part of the seed that needs the
 * product's own code (the first admin, the owner's account and password, providers with sealed
 * credentials, the MCP server with its discovered tools, the response cache off), and, on every
 * run, pointing the providers and the MCP server at this run's fake upstream and MCP server
 * (their ports change from run to run).
 */
export const PLATFORM_ADMIN = {
  email: 'admin@bench.example',
  display_name: 'Bench admin',
  password: 'bench-admin-password',
};
export const PLATFORM_OWNER = {
  email: 'owner@bench.example',
  display_name: 'Owner of many keys',
  password: 'bench-owner-password',
};
export const PROVIDER_COUNT = 5;
export const MCP_SERVER_NAME = 'bench';
const providerName = (index: number) => `bench-${index + 1}`;

export type ConsoleCall = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

export function consoleApi(consoleUrl: string, token?: string): ConsoleCall {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${consoleUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`console ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}

/**
 * Up to 200 entries of a console list (every list pages, answering a JSON array with the total in
 * X-Total-Count): the seed's few providers and servers.
 */
async function listed<T>(call: ConsoleCall, path: string): Promise<T[]> {
  return await call<T[]>('GET', `${path}?limit=200`);
}

export async function login(consoleUrl: string, account: { email: string; password: string }) {
  const body = await consoleApi(consoleUrl)<{ access_token: string; user: { id: string } }>(
    'POST',
    '/api/auth/login',
    { email: account.email, password: account.password },
  );
  return { token: body.access_token, userId: body.user.id };
}

export interface ApiSeed {
  adminId: string;
  ownerId: string;
  providerIds: string[];
}

/** The API-made part of the seed, on a stack just started on an empty database. */
export async function seedThroughApi(
  consoleUrl: string,
  upstreamUrl: string,
  /** null: no MCP server. */
  mcpUrl: string | null,
): Promise<ApiSeed> {
  const init = await consoleApi(consoleUrl)<{ access_token: string; user: { id: string } }>(
    'POST',
    '/api/setup/initialize',
    { admin: PLATFORM_ADMIN },
  );
  const call = consoleApi(consoleUrl, init.access_token);
  const owner = await call<{ id: string }>('POST', '/api/admin/users', { ...PLATFORM_OWNER, role: 'user' });
  const providerIds: string[] = [];
  for (let i = 0; i < PROVIDER_COUNT; i++) {
    const created = await call<{ id: string }>('POST', '/api/admin/providers', {
      name: providerName(i),
      display_name: `Bench ${i + 1}`,
      provider_type: 'openai',
      base_url: `${upstreamUrl}/v1`,
      api_key: 'sk-bench',
    });
    providerIds.push(created.id);
  }
  if (mcpUrl !== null) {
    const server = await call<{ id: string }>('POST', '/api/mcp/servers', {
      name: MCP_SERVER_NAME,
      description: 'The platform bench’s MCP server',
      endpoint_url: mcpUrl,
    });
    await call('POST', `/api/mcp/servers/${server.id}/discover`);
  }
  // Every chat goes upstream: a cache would answer the bench's repeated bodies itself.
  await call('PATCH', '/api/admin/settings', { settings: { cache_ttl_seconds: 0 } });
  return { adminId: init.user.id, ownerId: owner.id, providerIds };
}

/** Points the seed's providers and MCP server at this run's upstream and MCP server. */
export async function repoint(call: ConsoleCall, upstreamUrl: string, mcpUrl: string): Promise<void> {
  const providers = await listed<{ id: string; name: string }>(call, '/api/admin/providers');
  const ours = providers.filter((p) => /^bench-\d+$/.test(p.name));
  if (ours.length !== PROVIDER_COUNT) throw new Error(`expected ${PROVIDER_COUNT} bench providers`);
  for (const provider of ours)
    await call('PATCH', `/api/admin/providers/${provider.id}`, { base_url: `${upstreamUrl}/v1` });
  const servers = await listed<{ id: string; name: string }>(call, '/api/mcp/servers');
  const server = servers.find((s) => s.name === MCP_SERVER_NAME);
  if (!server) throw new Error(`no MCP server named ${MCP_SERVER_NAME}`);
  await call('PATCH', `/api/mcp/servers/${server.id}`, { endpoint_url: mcpUrl });
}
