// MCP clients need nothing but the URL (docs/mcp.md): an MCP client from the official SDK, given
// only the gateway's /mcp URL, finds the protected-resource and authorization-server metadata,
// registers itself, sends the user to the console, where a real browser signs in and consents in
// the web UI, and then lists and calls tools with the token it got. Refresh rotates; a reused
// refresh token ends the grant; a grant revoked in the console stops the client's access token at
// once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type OAuthMcpServer, startOAuthMcpServer } from '../fakes/mcp-oauth-server';
import { type RunningMcpServer, startEverything } from '../fakes/mcp-servers';
import { launchBrowser, watchErrors } from '../helpers/browser';
import { FIRST_ADMIN } from '../helpers/first-run';
import { http } from '../helpers/http';

const { gatewayUrl, consoleUrl } = inject('stack');
let everything: RunningMcpServer;
let callback: Server;
let redirectUrl: string;
let browser: Browser;
let adminToken: string;
let hub: OAuthMcpServer;

/** Where the browser lands after consent: a client's loopback listener, as CLIs run one. */
function startCallbackListener(): Promise<Server> {
  const server = createServer((_req, res) => res.end('You can close this window.'));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  everything = await startEverything('streamableHttp');
  hub = await startOAuthMcpServer();
  callback = await startCallbackListener();
  redirectUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await launchBrowser();
  const { email, password } = FIRST_ADMIN;
  adminToken = (await http('POST', `${consoleUrl}/api/auth/login`, { body: { email, password } })).body
    .access_token;
  const server = await http('POST', `${consoleUrl}/api/mcp/servers`, {
    token: adminToken,
    body: { name: 'oauth-everything', endpoint_url: everything.url },
  });
  expect(server.status, JSON.stringify(server.body)).toBe(201);
  const found = await http('POST', `${consoleUrl}/api/mcp/servers/${server.body.id}/discover`, {
    token: adminToken,
  });
  expect(found.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  callback?.close();
  await everything?.close();
  await hub?.close();
});

/** The SDK's client side of OAuth, kept in memory; the authorization URL is handed to the test. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return redirectUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E agent',
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** What the user does in the browser: sign in to the console, read the consent screen, allow. */
async function consentInBrowser(authorizationUrl: URL): Promise<string> {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  try {
    await page.goto(authorizationUrl.toString());
    await page.getByLabel('Email').fill(FIRST_ADMIN.email);
    await page.getByLabel('Password').fill(FIRST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('E2E agent').waitFor();
    await page.getByText(`${gatewayUrl}/mcp`, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.toString().startsWith(redirectUrl));
    expect(errors.list()).toEqual([]);
    return page.url();
  } finally {
    await page.close();
  }
}

describe('MCP clients sign users in with OAuth', () => {
  it('discovers, registers, sends the user to consent, and calls tools with the token it got', async () => {
    const provider = new MemoryProvider();
    const resource = new URL(`${gatewayUrl}/mcp`);
    // What the SDK does on a 401 from /mcp: metadata, registration, then the browser.
    expect(await auth(provider, { serverUrl: resource })).toBe('REDIRECT');
    expect(provider.client?.client_id).toBeTruthy();
    const authorizationUrl = provider.authorizationUrl;
    expect(authorizationUrl?.origin).toBe(new URL(consoleUrl).origin);
    expect(authorizationUrl?.searchParams.get('resource')).toBe(resource.toString());

    const landed = new URL(await consentInBrowser(authorizationUrl as URL));
    expect(landed.searchParams.get('iss')).toBe(consoleUrl);
    const code = landed.searchParams.get('code') ?? '';
    expect(await auth(provider, { serverUrl: resource, authorizationCode: code })).toBe('AUTHORIZED');
    const first = provider.saved;
    expect(first?.refresh_token).toBeTruthy();

    const transport = new StreamableHTTPClientTransport(resource, { authProvider: provider });
    const client = new Client({ name: 'e2e-oauth', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('oauth-everything__echo');
    const echo = await client.callTool({
      name: 'oauth-everything__echo',
      arguments: { message: 'signed in' },
    });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: signed in' }]);
    await client.close();

    // The token is for /mcp only: /mcp/{server} is another resource (RFC 8707).
    const other = await fetch(`${gatewayUrl}/mcp/oauth-everything`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${first?.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(other.status).toBe(401);
    expect(other.headers.get('www-authenticate')).toContain(
      `resource_metadata="${gatewayUrl}/.well-known/oauth-protected-resource/mcp/oauth-everything"`,
    );

    // Refresh rotates the refresh token; the old one, presented again, ends the grant.
    const refresh = (token: string) =>
      fetch(`${consoleUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: String(provider.client?.client_id),
        }),
      });
    const rotated = await refresh(first?.refresh_token ?? '');
    expect(rotated.status).toBe(200);
    const next = (await rotated.json()) as OAuthTokens;
    expect(next.refresh_token).not.toBe(first?.refresh_token);
    const grants = await http('GET', `${consoleUrl}/api/oauth/grants`, { token: adminToken });
    const grant = grants.body.find((g: { client_name: string }) => g.client_name === 'E2E agent');
    expect(grant).toMatchObject({ resource: `${gatewayUrl}/mcp`, scope: 'mcp', revoked_at: null });
    expect((await refresh(first?.refresh_token ?? '')).status).toBe(400);
    expect((await refresh(next.refresh_token ?? '')).status).toBe(400);
    const after = await http('GET', `${consoleUrl}/api/oauth/grants`, { token: adminToken });
    expect(after.body.find((g: { id: string }) => g.id === grant.id)).toMatchObject({
      revoked_reason: 'refresh token reused',
    });
    // Its access tokens stop at once, not when they expire.
    const refused = await fetch(`${gatewayUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${next.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('answers discovery and refuses bad requests with OAuth errors', async () => {
    const prm = await (await fetch(`${gatewayUrl}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${gatewayUrl}/mcp`, authorization_servers: [consoleUrl] });
    const meta = await (await fetch(`${consoleUrl}/.well-known/oauth-authorization-server`)).json();
    expect(meta).toMatchObject({ issuer: consoleUrl, code_challenge_methods_supported: ['S256'] });
    const unknown = await fetch(`${consoleUrl}/oauth/authorize?client_id=nobody&response_type=code`, {
      redirect: 'manual',
    });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_client' });
    const badGrant = await fetch(`${consoleUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=nope&code_verifier=x&client_id=y',
    });
    expect(badGrant.status).toBe(400);
    expect(badGrant.headers.get('cache-control')).toBe('no-store');
    expect(await badGrant.json()).toMatchObject({ error: 'invalid_grant' });
    const badRegistration = await fetch(`${consoleUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://evil.example.com/cb'] }),
    });
    expect(badRegistration.status).toBe(400);
    expect(await badRegistration.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });
});

/** One tool call through /mcp with the official SDK client and an API key: its result, or its JSON-RPC error. */
async function mcpCall(
  token: string,
  method: 'tools/call',
  params: { name: string; arguments: Record<string, unknown> },
) {
  const client = new Client({ name: 'e2e-key', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    expect(method).toBe('tools/call');
    return { result: await client.callTool(params), error: undefined };
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return { result: undefined, error: { code, message, data } };
  } finally {
    await client.close();
  }
}

describe('upstream MCP servers where each user signs in with their own account', () => {
  it("connects the user's account in the web UI and calls the server with that user's own token", async () => {
    const server = await http('POST', `${consoleUrl}/api/mcp/servers`, {
      token: adminToken,
      body: { name: 'hub', endpoint_url: hub.url, auth_type: 'oauth' },
    });
    expect(server.status, JSON.stringify(server.body)).toBe(201);
    const discover = () =>
      http('POST', `${consoleUrl}/api/mcp/servers/${server.body.id}/discover`, { token: adminToken });
    // Nobody can list its tools before connecting: the admin is told to connect first.
    const early = await discover();
    expect(early.status).toBe(409);
    expect(early.body.error.message).toContain(
      `Connect your hub account first: ${consoleUrl}/mcp/connections`,
    );

    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${consoleUrl}/mcp/connections`);
    await page.getByLabel('Email').fill(FIRST_ADMIN.email);
    await page.getByLabel('Password').fill(FIRST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const row = page.getByTestId('mcp-connections-table').getByRole('row', { name: /hub/ });
    await row.getByText('not connected').waitFor();
    await row.getByRole('button', { name: 'Connect' }).click();
    // The upstream's own sign-in page: the user is alice there.
    await page.getByLabel('Fake Hub login').fill('alice');
    await page.getByRole('button', { name: 'Authorize Fake Hub' }).click();
    await page.getByText('Connected to hub.').waitFor();
    await row.getByText('connected', { exact: true }).waitFor();
    expect(errors.list()).toEqual([]);
    await page.close();
    // Sluice asked for the token for that server (RFC 8707), with PKCE.
    expect(hub.tokenRequests.at(-1)).toMatchObject({ grant_type: 'authorization_code', resource: hub.url });
    expect(hub.tokenRequests.at(-1)?.code_verifier).toMatch(/^[\w-]{43}$/);

    expect((await discover()).body).toMatchObject({ tools_discovered: 1 });
    // An MCP client with nothing but the URL signs the same user in, and acts as alice upstream.
    const provider = new MemoryProvider();
    const resource = new URL(`${gatewayUrl}/mcp`);
    expect(await auth(provider, { serverUrl: resource })).toBe('REDIRECT');
    const landed = new URL(await consentInBrowser(provider.authorizationUrl as URL));
    const code = landed.searchParams.get('code') ?? '';
    expect(await auth(provider, { serverUrl: resource, authorizationCode: code })).toBe('AUTHORIZED');
    const agent = new Client({ name: 'e2e-oauth-hub', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(resource, { authProvider: provider }));
    await expect
      .poll(async () => (await agent.callTool({ name: 'hub__whoami', arguments: {} })).content, {
        timeout: 10_000,
      })
      .toEqual([{ type: 'text', text: 'You are alice' }]);
    await agent.close();
    const adminKey = (
      await http('POST', `${consoleUrl}/api/keys`, { token: adminToken, body: { name: 'hub' } })
    ).body.key;
    expect(
      (await mcpCall(adminKey, 'tools/call', { name: 'hub__whoami', arguments: {} })).result?.content,
    ).toEqual([{ type: 'text', text: 'You are alice' }]);

    // Another user, not connected: told where to connect, as a URL elicitation.
    const bob = {
      email: 'bob-hub@example.com',
      display_name: 'Bob',
      password: 'bob-password-1',
      role: 'user',
    };
    expect(
      (await http('POST', `${consoleUrl}/api/admin/users`, { token: adminToken, body: bob })).status,
    ).toBe(201);
    const bobToken = (
      await http('POST', `${consoleUrl}/api/auth/login`, {
        body: { email: bob.email, password: bob.password },
      })
    ).body.access_token;
    const bobKey = (await http('POST', `${consoleUrl}/api/keys`, { token: bobToken, body: { name: 'bob' } }))
      .body.key;
    const refused = await mcpCall(bobKey, 'tools/call', { name: 'hub__whoami', arguments: {} });
    expect(refused.error).toMatchObject({
      code: -32042,
      data: { elicitations: [{ mode: 'url', url: `${consoleUrl}/mcp/connections` }] },
    });

    // Disconnecting forgets the tokens: the admin is asked to connect again.
    expect(
      (await http('DELETE', `${consoleUrl}/api/mcp/connections/${server.body.id}`, { token: adminToken }))
        .status,
    ).toBe(204);
    expect((await mcpCall(adminKey, 'tools/call', { name: 'hub__whoami', arguments: {} })).error?.code).toBe(
      -32042,
    );
  });
});
