// A server where each user signs in, whose authorization server binds tokens to a key (DPoP,
// RFC 9449): the user-mode connector connects with a key of its own, proves it on every token
// request and every call, follows each server's nonces, and keeps the key sealed with the
// user's tokens in Postgres. Real Postgres and Redis (through the store bridge), real HTTP to a
// fake server that checks every proof; no DPoP in the metadata is today's Bearer path.
import { Redis } from '@upstash/redis';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { upstreamOAuthStore } from '../../shared/src/db/repos/mcp-oauth-repo';
import { mcpServers, mcpUserTokens, users } from '../../shared/src/db/schema';
import type { QueryDb } from '../../shared/src/db/types';
import { finishUpstreamConnect, startUpstreamConnect } from '../../shared/src/mcp/oauth/connect';
import type { UpstreamOAuthDeps } from '../../shared/src/mcp/oauth/ports';
import { targetForUser } from '../../shared/src/mcp/oauth/user-target';
import type { McpServerTarget } from '../../shared/src/mcp/ports';
import { authenticatedFetch } from '../../shared/src/mcp/upstream/auth';
import { createSecretBox, type SecretBox } from '../../shared/src/secrets/secret-box';
import { configureNeon, createHttpDb } from '../../shared/src/stores/neon';
import { type DpopMcpServer, type DpopServerOptions, startDpopMcpServer } from '../fakes/mcp-dpop-server';
import { TEST_SECRETS } from '../helpers/env';
import { freshDatabase } from '../helpers/stores';

let db: QueryDb;
let secrets: SecretBox;
let redis: Redis;
let userId: string;
const servers: DpopMcpServer[] = [];
let clock = () => new Date();

beforeAll(async () => {
  const sidecar = inject('sidecarEnv');
  configureNeon({ httpEndpoint: sidecar.NEON_LOCAL_HTTP });
  db = createHttpDb(await freshDatabase('sluice_it_mcp_dpop'));
  secrets = await createSecretBox(TEST_SECRETS.SLUICE_ENCRYPTION_KEY);
  redis = new Redis({ url: sidecar.UPSTASH_REDIS_REST_URL, token: sidecar.UPSTASH_REDIS_REST_TOKEN });
  const [user] = await db
    .insert(users)
    .values({ email: 'dpop@example.com', displayName: 'D' })
    .returning({ id: users.id });
  userId = user?.id as string;
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

const deps = (): UpstreamOAuthDeps => ({
  store: upstreamOAuthStore(db, secrets),
  kv: redis,
  fetch,
  callbackUrl: 'https://console.example.com/oauth/upstream/callback',
  clientMetadataUrl: null,
  now: () => clock(),
});

/** A fake server registered with auth_type oauth, and the user connected to it (the browser's redirects followed). */
async function connected(name: string, options: DpopServerOptions) {
  const fake = await startDpopMcpServer(options);
  servers.push(fake);
  const [row] = await db
    .insert(mcpServers)
    .values({ name, endpointUrl: fake.url, authType: 'oauth' })
    .returning({ id: mcpServers.id });
  const target: McpServerTarget = {
    id: row?.id as string,
    name,
    endpointUrl: fake.url,
    transportType: 'streamable_http',
    authType: 'oauth',
    authName: null,
    authSecret: null,
  };
  const authorize = await startUpstreamConnect(target, userId, deps());
  const approved = await fetch(authorize, { redirect: 'manual' });
  const back = new URL(approved.headers.get('location') ?? '');
  await finishUpstreamConnect(Object.fromEntries(back.searchParams), deps());
  return { fake, target };
}

/** One JSON-RPC request to the server with the user's credential, as the gateway sends it. */
async function call(target: McpServerTarget, url = target.endpointUrl) {
  const ready = await targetForUser(target, userId, deps(), null);
  const response = await authenticatedFetch(ready)(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
  });
  return { status: response.status, body: await response.json() };
}

/** The sealed access-token column as stored, and opened. */
async function sealedRow(serverId: string) {
  const [row] = await db
    .select()
    .from(mcpUserTokens)
    .where(and(eq(mcpUserTokens.serverId, serverId), eq(mcpUserTokens.userId, userId)));
  const stored = row?.accessTokenEncrypted ?? '';
  return { stored, opened: await secrets.decrypt(stored) };
}

describe('an upstream whose authorization server binds tokens to a key (DPoP)', () => {
  it('connects with a proof, retried once with the nonce the token endpoint asks for, and seals the key with the token', async () => {
    const { fake, target } = await connected('dpop-nonce', { requireNonce: true });
    const tokenRequests = fake.seen.filter((r) => r.path === '/token');
    expect(tokenRequests.map((r) => [r.form?.grant_type, r.proof, r.refusal])).toEqual([
      ['authorization_code', true, 'use_dpop_nonce'],
      ['authorization_code', true, null],
    ]);
    expect(tokenRequests[1]?.nonce).toEqual(expect.any(String));

    const { stored, opened } = await sealedRow(target.id);
    const record = JSON.parse(opened);
    expect(record).toMatchObject({ token_type: 'DPoP', dpop_key: { alg: 'ES256' } });
    expect(record.dpop_key.publicJwk.d).toBeUndefined();
    // Sealed: neither the private key nor the token is readable in the column.
    expect(stored).not.toContain(record.dpop_key.privateJwk.d);
    expect(stored).not.toContain(record.access_token);
  });

  it('calls with the DPoP scheme and a fresh proof, retrying once on the nonce challenge and then remembering it', async () => {
    const { fake, target } = await connected('dpop-calls', { requireNonce: true });
    fake.seen.length = 0;
    // htu is the URL without its query: the server checks it against its own.
    expect(await call(target, `${target.endpointUrl}?tenant=1`)).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 7, result: {} },
    });
    expect((await call(target)).status).toBe(200);
    expect(fake.seen.map((r) => [r.scheme, r.proof, r.refusal])).toEqual([
      ['DPoP', true, 'use_dpop_nonce'],
      ['DPoP', true, null],
      ['DPoP', true, null],
    ]);

    // A new nonce at the token endpoint and /mcp: the refresh (a day later) proves the same key,
    // which the refresh token is bound to, and is retried once with the new nonce.
    fake.rotateNonce();
    fake.seen.length = 0;
    clock = () => new Date(Date.now() + 86_400_000);
    try {
      expect((await call(target)).status).toBe(200);
    } finally {
      clock = () => new Date();
    }
    expect(fake.seen.map((r) => [r.path, r.form?.grant_type, r.refusal])).toEqual([
      ['/token', 'refresh_token', 'use_dpop_nonce'],
      ['/token', 'refresh_token', null],
      ['/mcp', undefined, 'use_dpop_nonce'],
      ['/mcp', undefined, null],
    ]);
  });

  it('calls with Bearer a token the server did not bind (token_type Bearer), still proving the key on refresh', async () => {
    const { fake, target } = await connected('dpop-unbound', { unbound: true });
    expect(fake.seen.filter((r) => r.path === '/token').map((r) => r.proof)).toEqual([true]);
    fake.seen.length = 0;
    expect((await call(target)).status).toBe(200);
    clock = () => new Date(Date.now() + 86_400_000);
    try {
      expect((await call(target)).status).toBe(200);
    } finally {
      clock = () => new Date();
    }
    expect(fake.seen.map((r) => [r.path, r.scheme, r.proof, r.refusal])).toEqual([
      ['/mcp', 'Bearer', false, null],
      ['/token', null, true, null],
      ['/mcp', 'Bearer', false, null],
    ]);
  });

  it('asks the user to connect again when the server refuses the token for another reason', async () => {
    const { fake, target } = await connected('dpop-revoked', {});
    fake.revokeAll();
    await expect(call(target)).rejects.toThrow('Connect your dpop-revoked account first');
    expect(await upstreamOAuthStore(db, secrets).tokens(target.id, userId)).toBeNull();
  });
});

describe('an upstream whose metadata lists no DPoP', () => {
  it('is connected and called with Bearer, no proof anywhere, the token sealed alone as before', async () => {
    const { fake, target } = await connected('bearer-only', { dpop: false });
    expect((await call(target)).status).toBe(200);
    expect(fake.seen.filter((r) => r.refusal === null).map((r) => [r.path, r.scheme, r.proof])).toEqual([
      ['/token', null, false],
      ['/mcp', 'Bearer', false],
    ]);
    const { opened } = await sealedRow(target.id);
    expect(opened).not.toMatch(/^\{/);
    expect(await upstreamOAuthStore(db, secrets).tokens(target.id, userId)).toMatchObject({
      accessToken: opened,
      dpopKey: null,
      tokenType: 'Bearer',
    });
  });
});
