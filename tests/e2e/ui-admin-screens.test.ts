// The web UI's admin screens in a real browser (Debian's chromium through playwright-core): users,
// limits (roles, teams, per-key rules and budgets with live usage), MCP servers, tools and logs,
// the access, app, platform and audit logs, settings, budget states and the site name; then why a
// gateway log row cost $0, the tokens in the analytics chart, and a key's RPM as one of its limits
// on the keys and limits pages. Each screen loads data created through the API, performs a create
// or edit that the API then reflects, and shows a 422 at its field.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exportPKCS8, generateKeyPair } from 'jose';
import OpenAI from 'openai';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningMcpServer, startEverything } from '../fakes/mcp-servers';
import type { FakeUpstreams } from '../fakes/server';
import { type BrowserErrors, screenshot } from '../helpers/browser';
import { http } from '../helpers/http';
import { closeOpenDialogs, navigate, startUiSession, type UiSession } from '../helpers/ui-session';
import type { StartedStack } from '../setup/e2e-global';

// Own database and Redis db: nothing shared with other suites' stacks.
const DATABASE = process.env.TEST_UI_ADMIN_DATABASE ?? 'ui2_admin_screens';
const REDIS_URL = process.env.TEST_UI_ADMIN_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const ADMIN = {
  email: 'admin@ui2.example.com',
  display_name: 'UI2 Admin',
  password: 'correct horse battery',
};
const MEMBER = { email: 'member@ui2.example.com', display_name: 'Member', password: 'member password 1' };
const OIDC_SECRET = 'oidc-client-secret-never-shown';
const MODEL = 'ui2-model';
const PRICED_MODEL = 'ui2-priced';
const FAILING_MODEL = 'ui2-fails';
const UNPRICED_MODEL = 'ui2-unpriced';

let session: UiSession;
let stack: StartedStack;
let fakes: FakeUpstreams;
let everything: RunningMcpServer;
let page: Page;
let errors: BrowserErrors;
let token = '';
let keyId = '';
let keySecret = '';

const api = (method: string, path: string, body?: unknown) =>
  http(method, `${stack.consoleUrl}${path}`, { token, body });

async function created(method: string, path: string, body: unknown) {
  const res = await api(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** Everything the screens should show, made through the API (and one gateway call each for /v1 and /mcp). */
async function seed(): Promise<void> {
  const setup = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, { body: { admin: ADMIN } });
  expect(setup.status).toBe(200);
  token = setup.body.access_token;
  await created('POST', '/api/admin/users', { ...MEMBER, role: 'user' });
  await created('POST', '/api/admin/roles', {
    name: 'seeded-role',
    rules: [{ kind: 'requests', window: '1h', limit: 1000 }],
  });
  await created('POST', '/api/admin/teams', { name: 'seeded-team', description: 'made by the API' });
  const provider = await created('POST', '/api/admin/providers', {
    name: 'fake-openai',
    display_name: 'Fake OpenAI',
    provider_type: 'openai',
    base_url: fakes.baseUrlFor('openai'),
    api_key: fakes.apiKeyFor('openai'),
  });
  await created('POST', '/api/admin/models', {
    name: MODEL,
    routes: [{ provider_id: provider.id, upstream_model: 'test-model' }],
  });
  const key = await created('POST', '/api/keys', { name: 'limits key' });
  keyId = key.id;
  keySecret = key.key;
  await created('PUT', `/api/admin/limits/api_key/${keyId}/rules`, {
    rules: [{ kind: 'requests', window: '1m', limit: 50 }],
  });
  const openai = new OpenAI({ apiKey: key.key, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
  await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
  const server = await created('POST', '/api/mcp/servers', {
    name: 'everything',
    endpoint_url: everything.url,
  });
  await created('POST', `/api/mcp/servers/${server.id}/discover`, undefined);
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.gatewayUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key.key}` } },
  });
  const client = new Client({ name: 'ui2', version: '1.0.0' });
  await client.connect(transport);
  await client.callTool({ name: 'everything__echo', arguments: { message: 'logged' } });
  await transport.terminateSession();
  await client.close();
  await created('PATCH', '/api/admin/settings', { settings: { oidc_client_secret: OIDC_SECRET } });
}

beforeAll(async () => {
  session = await startUiSession({ database: DATABASE, redisUrl: REDIS_URL });
  ({ stack, fakes, page, errors } = session);
  everything = await startEverything('streamableHttp');
  await seed();
});

afterAll(async () => {
  await everything?.close();
  await session?.close();
});

// A failed step leaves a screenshot; the next one starts without a modal left open by it.
afterEach(async (context) => {
  if (context.task.result?.state === 'fail')
    await screenshot(page, `admin-failed-${context.task.name.split(':')[0]}`);
});
beforeEach(() => closeOpenDialogs(page));

const nav = (label: string) => navigate(page, label);
const dialog = () => page.getByRole('dialog');

/** The validation message Mantine renders under an input: the element with id `<input id>-error`. */
async function fieldError(input: Locator): Promise<string> {
  const id = await input.getAttribute('id');
  const error = page.locator(`[id="${id}-error"]`);
  await error.waitFor({ timeout: 10_000 });
  return (await error.textContent()) ?? '';
}

async function pick(input: Locator, option: string): Promise<void> {
  await input.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A multi-select stays open after a pick: Tab away so its dropdown covers nothing. */
async function pickMany(input: Locator, option: string): Promise<void> {
  await pick(input, option);
  await input.press('Tab');
}

async function signIn(email: string, password: string): Promise<void> {
  await page.goto(`${stack.consoleUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/analytics');
}

const tableText = (testId: string) => page.getByTestId(testId).textContent();

/** A guardrail setting's editor on the security tab: security.redact, .content or .inspect_tools. */
const guardrail = (key: string) => page.getByTestId(`guardrail-${key}`);

/** Switches a guardrail setting's editor between its form and its JSON text. */
async function editAsJson(key: string, on = true): Promise<void> {
  const toggle = guardrail(key).getByRole('switch', { name: 'Edit as JSON' });
  if (on) await toggle.check();
  else await toggle.uncheck();
}

describe('admin screens in a real browser', () => {
  it('signs in as the admin', async () => {
    await signIn(ADMIN.email, ADMIN.password);
  });

  it('users: lists API-made users, creates one (422 at the password first), changes a role', async () => {
    await nav('Users');
    await page.getByTestId('users-table').getByText(MEMBER.email).waitFor();
    await page.getByRole('button', { name: 'Create user' }).click();
    await dialog().getByLabel('Email').fill('carol@ui2.example.com');
    await dialog().getByLabel('Display name').fill('Carol');
    const password = dialog().getByLabel('Password');
    await password.fill('short');
    errors.expectFailure('/api/admin/users', 422);
    await dialog().getByRole('button', { name: 'Create user' }).click();
    expect(await fieldError(password)).toBe('must be at least 8 characters');
    await screenshot(page, 'admin-01-users-422');
    await password.fill('long enough password');
    await dialog().getByRole('button', { name: 'Create user' }).click();
    const row = page.getByTestId('users-table').getByRole('row').filter({ hasText: 'carol@ui2.example.com' });
    await row.getByRole('button', { name: 'Edit' }).click();
    await pick(dialog().getByRole('textbox', { name: 'Role' }), 'operator');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await row.getByText('operator').waitFor();
    await screenshot(page, 'admin-02-users');
    const users = (await api('GET', '/api/admin/users?limit=200')).body as Array<{
      email: string;
      role: string;
    }>;
    expect(users.find((u) => u.email === 'carol@ui2.example.com')?.role).toBe('operator');
  });

  it('limits: roles load, a role is created with a rule (422 at the limit first), teams load', async () => {
    await nav('Limits');
    await page.getByTestId('roles-table').getByText('seeded-role').waitFor();
    expect(await tableText('roles-table')).toContain('1,000 requests / 1h');
    await page.getByRole('button', { name: 'Create role' }).click();
    await dialog().getByLabel('Name').fill('ui-role');
    await dialog().getByRole('button', { name: 'Add rate limit' }).click();
    const limit = dialog().getByLabel('Limit');
    await limit.fill('-5');
    errors.expectFailure('/api/admin/roles', 422);
    await dialog().getByRole('button', { name: 'Create role' }).click();
    expect(await fieldError(limit)).toBe('Too small: expected number to be >=0');
    await limit.fill('250');
    await dialog().getByRole('button', { name: 'Create role' }).click();
    await page.getByTestId('roles-table').getByText('250 requests / 1m').waitFor();
    await screenshot(page, 'admin-03-limits-roles');
    const roles = (await api('GET', '/api/admin/roles?limit=200')).body as Array<{
      name: string;
      rules: unknown[];
    }>;
    expect(roles.find((r) => r.name === 'ui-role')?.rules).toEqual([
      { kind: 'requests', window: '1m', limit: 250 },
    ]);
    await page.getByRole('tab', { name: 'Teams' }).click();
    await page.getByTestId('teams-table').getByText('seeded-team').waitFor();
  });

  it("limits: a key's live usage shows as bars; a budget added in the UI is stored and shown", async () => {
    await page.getByRole('tab', { name: 'API keys' }).click();
    // Any user's key: searched on the server (GET /api/admin/keys) by name, prefix or owner.
    const picker = page.getByRole('textbox', { name: 'API key' });
    const option = (await keyOption()) ?? '';
    await picker.fill(option.slice(0, option.indexOf(' (')));
    await page.getByRole('option', { name: option, exact: true }).click();
    // The picked key's label in the box is not taken for a new search.
    await page.getByText(/^[1-9]\d* key\(s\) match/).waitFor();
    const bar = page.getByTestId('usage-bar').filter({ hasText: 'requests / 1m' });
    await expect.poll(() => bar.getByTestId('usage-figures').textContent()).toBe('1 / 50');
    const form = page.getByTestId('subject-limits-form');
    await form.getByRole('button', { name: 'Add budget' }).click();
    const budget = form.getByLabel('Token budget');
    await budget.fill('-1');
    errors.expectFailure(`/api/admin/limits/api_key/${keyId}/budgets`, 422);
    await form.getByRole('button', { name: 'Save limits' }).click();
    expect(await fieldError(budget)).toBe('Too small: expected number to be >=0');
    await budget.fill('100000');
    await form.getByRole('button', { name: 'Save limits' }).click();
    await page.getByTestId('usage-bar').filter({ hasText: 'tokens / monthly' }).waitFor();
    await screenshot(page, 'admin-04-limits-key-usage');
    const budgets = await api('GET', `/api/admin/limits/api_key/${keyId}/budgets`);
    expect(budgets.body.budgets).toEqual([{ period: 'monthly', limit_tokens: 100000 }]);
  });

  it("limits: a key's daily budget shows its state, computed from the usage API and the budget thresholds", async () => {
    await created('PUT', `/api/admin/limits/api_key/${keyId}/budgets`, {
      budgets: [{ period: 'daily', limit_tokens: 50 }],
    });
    type Limit = { kind: string; window: string; used: number; limit: number };
    const daily = async () =>
      ((await api('GET', `/api/admin/limits/api_key/${keyId}/usage`)).body.limits as Limit[]).find(
        (l) => l.kind === 'tokens' && l.window === 'daily',
      );
    const before = (await daily())?.used ?? 0;
    // The fake upstream counts words: 20 in, "echo:" and the 20 back out. Admission reserves the
    // prompt's estimate (69 characters: 21 tokens) and max_tokens: 42 of the 50, with the setup's
    // first request already counted.
    const prompt = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
    const res = await fetch(`${stack.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${keySecret}`,
        'content-type': 'application/json',
        'cache-control': 'no-store',
      },
      body: JSON.stringify({ model: MODEL, max_tokens: 21, messages: [{ role: 'user', content: prompt }] }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    // Settled: the request's reservation (limits/reservation.ts) has given way to its 41 tokens.
    await expect.poll(async () => (await daily())?.used ?? 0).toBe(before + 41);
    const budget = await daily();
    const settings = (await api('GET', '/api/admin/settings/category/budget')).body;
    const share = (budget?.used ?? 0) / (budget?.limit ?? 1);
    expect(share).toBeGreaterThanOrEqual(settings.budget_warning_threshold);
    const expected =
      (budget?.used ?? 0) >= (budget?.limit ?? 0)
        ? 'exhausted'
        : share >= settings.budget_critical_threshold
          ? 'critical'
          : share >= settings.budget_warning_threshold
            ? 'warning'
            : 'ok';

    await page.reload();
    await page.getByRole('tab', { name: 'API keys' }).click();
    const option = (await keyOption()) ?? '';
    await page.getByRole('textbox', { name: 'API key' }).fill(option.slice(0, option.indexOf(' (')));
    await page.getByRole('option', { name: option, exact: true }).click();
    const bar = page.getByTestId('usage-bar').filter({ hasText: 'tokens / daily' });
    await expect
      .poll(() => bar.getByTestId('usage-figures').textContent())
      .toBe(`${budget?.used} / ${budget?.limit}`);
    await expect.poll(() => bar.getByTestId('budget-state').textContent()).toBe(expected);
    // The request rule, far from its limit, is ok.
    const rule = page.getByTestId('usage-bar').filter({ hasText: 'requests / 1m' });
    expect(await rule.getByTestId('budget-state').textContent()).toBe('ok');
    await screenshot(page, 'admin-04a-limits-budget-state');
    // Back to what the step before stored.
    await created('PUT', `/api/admin/limits/api_key/${keyId}/budgets`, {
      budgets: [{ period: 'monthly', limit_tokens: 100000 }],
    });
  });

  it('limits: a team gets a member and a role; a team grant without a team shows the 422 at Team', async () => {
    await page.getByRole('tab', { name: 'Teams' }).click();
    const team = page.getByTestId('teams-table').getByRole('row').filter({ hasText: 'seeded-team' });
    await team.getByRole('button', { name: 'Edit' }).click();
    await pickMany(dialog().getByRole('textbox', { name: 'Members' }), MEMBER.email);
    await pickMany(dialog().getByRole('textbox', { name: 'Roles' }), 'ui-role');
    await dialog().getByRole('button', { name: 'Save team' }).click();
    await team.getByText('ui-role').waitFor();
    const teams = (await api('GET', '/api/admin/teams?limit=200')).body as Array<{
      name: string;
      member_ids: string[];
    }>;
    expect(teams.find((t) => t.name === 'seeded-team')?.member_ids).toEqual([await memberId()]);
    await page.getByRole('tab', { name: 'Permissions' }).click();
    const form = page.getByTestId('grant-form');
    await pick(form.getByRole('textbox', { name: 'User' }), MEMBER.email);
    await pick(form.getByRole('textbox', { name: 'Scope' }), "team: the team's members and their keys");
    errors.expectFailure('/api/admin/permissions', 422);
    await form.getByRole('button', { name: 'Grant' }).click();
    expect(await fieldError(form.getByRole('textbox', { name: 'Team' }))).toBe(
      'is required for scope_type team',
    );
    await pick(form.getByRole('textbox', { name: 'Team' }), 'seeded-team');
    await form.getByRole('button', { name: 'Grant' }).click();
    await page.getByTestId('grants-table').getByText('team seeded-team').waitFor();
    await screenshot(page, 'admin-04b-limits-permissions');
  });

  it("limits: a user's extra role is saved and their live usage shows every limit that applies", async () => {
    await page.getByRole('tab', { name: 'Users' }).click();
    await pick(page.getByRole('textbox', { name: 'User', exact: true }), `${MEMBER.email} (user)`);
    await pickMany(page.getByRole('textbox', { name: 'Extra roles' }), 'seeded-role');
    await page.getByRole('button', { name: 'Save roles' }).click();
    const roles = await api('GET', '/api/admin/roles');
    const seeded = (roles.body as Array<{ id: string; name: string }>).find((r) => r.name === 'seeded-role');
    await expect
      .poll(async () => (await api('GET', `/api/admin/limits/user/${await memberId()}/roles`)).body.role_ids)
      .toEqual([seeded?.id]);
    // seeded-role (extra) and ui-role (through the team) both apply to the member.
    const panel = page.getByTestId('usage-panel');
    await panel.getByTestId('usage-bar').filter({ hasText: 'requests / 1h' }).waitFor();
    await panel.getByTestId('usage-bar').filter({ hasText: 'requests / 1m' }).waitFor();
    await screenshot(page, 'admin-04c-limits-user');
  });

  it('limits: a tool limit is added for a key (422 at the tool first), counts its calls, and is removed', async () => {
    await page.getByRole('tab', { name: 'Tool limits' }).click();
    const form = page.getByTestId('tool-limit-form');
    await pick(form.getByRole('textbox', { name: 'Applies to' }), 'API key');
    const option = (await keyOption()) ?? '';
    await form.getByRole('textbox', { name: 'API key' }).fill(option.slice(0, option.indexOf(' (')));
    await page.getByRole('option', { name: option, exact: true }).click();
    const tool = form.getByRole('textbox', { name: 'Tool' });
    await tool.fill('everything');
    // Its suggestions would cover the button.
    await tool.press('Escape');
    await form.getByLabel('Calls').fill('5');
    errors.expectFailure(`/api/admin/limits/api_key/${keyId}/tool-limits`, 422);
    await form.getByRole('button', { name: 'Add tool limit' }).click();
    expect(await fieldError(tool)).toBe('must be *, <server>__* or <server>__<tool>');
    await tool.fill('everything__echo');
    await tool.press('Escape');
    await form.getByRole('button', { name: 'Add tool limit' }).click();
    const row = page
      .getByTestId('tool-limits-table')
      .getByRole('row')
      .filter({ hasText: 'everything__echo' });
    await row.getByText('5 calls / 1m').waitFor();
    expect(await row.textContent()).toContain('API key limits key');
    const stored = await api('GET', `/api/admin/limits/api_key/${keyId}/tool-limits`);
    expect(stored.body.tool_limits).toMatchObject([
      { tool: 'everything__echo', kind: 'rate', window: '1m', limit: 5 },
    ]);
    await screenshot(page, 'admin-04d-limits-tools');

    // One call through the gateway (once it has read the new limits version) shows on the key's usage.
    await new Promise((r) => setTimeout(r, 1_100));
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.gatewayUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${keySecret}` } },
    });
    const client = new Client({ name: 'ui2', version: '1.0.0' });
    await client.connect(transport);
    await client.callTool({ name: 'everything__echo', arguments: { message: 'counted' } });
    await transport.terminateSession();
    await client.close();
    await page.getByRole('tab', { name: 'API keys' }).click();
    await page.getByRole('textbox', { name: 'API key' }).fill(option.slice(0, option.indexOf(' (')));
    await page.getByRole('option', { name: option, exact: true }).click();
    const bar = page.getByTestId('tool-usage-bar').filter({ hasText: 'everything__echo: calls / 1m' });
    await expect.poll(() => bar.getByTestId('usage-figures').textContent()).toBe('1 / 5');
    await screenshot(page, 'admin-04e-limits-tool-usage');

    await page.getByRole('tab', { name: 'Tool limits' }).click();
    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('tool-limits-table').getByText('No tool limits.').waitFor();
    expect((await api('GET', `/api/admin/limits/api_key/${keyId}/tool-limits`)).body.tool_limits).toEqual([]);
  });

  it('MCP servers: lists with tool counts, registers one (422 at the name first), discovers, deletes', async () => {
    await nav('MCP servers');
    const seeded = page.getByTestId('mcp-servers-table').getByRole('row').filter({ hasText: 'everything' });
    await seeded.waitFor();
    await page.getByRole('button', { name: 'Register server' }).click();
    const name = dialog().getByLabel('Name');
    await name.fill('Not A Slug');
    await dialog().getByLabel('Endpoint URL').fill(everything.url);
    errors.expectFailure('/api/mcp/servers', 422);
    await dialog().getByRole('button', { name: 'Register server' }).click();
    expect(await fieldError(name)).toBe('must be a lowercase slug');
    await name.fill('second');
    await dialog().getByRole('button', { name: 'Register server' }).click();
    const row = page.getByTestId('mcp-servers-table').getByRole('row').filter({ hasText: 'second' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Discover' }).click();
    await page.getByTestId('discover-result').getByText('echo', { exact: true }).waitFor();
    await screenshot(page, 'admin-05-mcp-discover');
    await dialog().getByRole('button', { name: 'Close' }).click();
    const servers = (await api('GET', '/api/mcp/servers')).body as Array<{
      name: string;
      tool_count: number;
    }>;
    const count = servers.find((s) => s.name === 'second')?.tool_count ?? 0;
    expect(count).toBeGreaterThan(0);
    expect(await row.textContent()).toContain(String(count));
    await screenshot(page, 'admin-06-mcp-servers');
    await row.getByRole('button', { name: 'Delete' }).click();
    await dialog().getByText('live MCP sessions using this server are terminated').waitFor();
    await dialog().getByRole('button', { name: 'Delete server' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('MCP servers: one where each user signs in, with a client registered beforehand (secret write-only)', async () => {
    await nav('MCP servers');
    await page.getByRole('button', { name: 'Register server' }).click();
    await dialog().getByLabel('Name').fill('hub');
    await dialog().getByLabel('Endpoint URL').fill('https://hub.example.com/mcp');
    await pick(dialog().getByRole('textbox', { name: 'Authentication' }), 'Each user signs in (OAuth)');
    await dialog().getByLabel('Client ID (optional)').fill('sluice-at-hub');
    await dialog().getByLabel('Client secret (optional)').fill('hub-client-secret');
    await dialog().getByRole('button', { name: 'Register server' }).click();
    const row = page.getByTestId('mcp-servers-table').getByRole('row').filter({ hasText: 'hub' });
    await row.waitFor();
    expect(await row.textContent()).toContain('oauth (client sluice-at-hub)');
    const servers = (await api('GET', '/api/mcp/servers')).body as Array<Record<string, unknown>>;
    expect(servers.find((s) => s.name === 'hub')).toMatchObject({
      auth_type: 'oauth',
      oauth_client_id: 'sluice-at-hub',
      has_oauth_client_secret: true,
    });
    expect(JSON.stringify(servers)).not.toContain('hub-client-secret');
    await row.getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('button', { name: 'Delete server' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('MCP servers: ones Sluice signs in to as itself, a private key (422 at it first) and a workload token, write-only', async () => {
    await nav('MCP servers');
    await page.getByRole('button', { name: 'Register server' }).click();
    await dialog().getByLabel('Name').fill('internal');
    await dialog().getByLabel('Endpoint URL').fill('https://internal.example.com/mcp');
    await pick(
      dialog().getByRole('textbox', { name: 'Authentication' }),
      'Sluice signs in as a client (OAuth client credentials)',
    );
    await dialog().getByLabel('Client ID', { exact: true }).fill('sluice-m2m');
    await pick(
      dialog().getByRole('textbox', { name: 'Client authentication' }),
      'Private key (private_key_jwt)',
    );
    const key = dialog().getByLabel('Private key', { exact: true });
    await key.fill('not a key');
    errors.expectFailure('/api/mcp/servers', 422);
    await dialog().getByRole('button', { name: 'Register server' }).click();
    expect(await fieldError(key)).toBe('must be a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)');
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    await key.fill(pem);
    await dialog().getByRole('button', { name: 'Register server' }).click();
    const internal = page.getByTestId('mcp-servers-table').getByRole('row').filter({ hasText: 'internal' });
    await internal.waitFor();
    expect(await internal.textContent()).toContain('oauth_client_credentials (client sluice-m2m)');
    // The row shows while the dialog is still closing; its own "Register server" would match too.
    await dialog().waitFor({ state: 'detached' });

    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2lnbmF0dXJl';
    await page.getByRole('button', { name: 'Register server' }).click();
    await dialog().getByLabel('Name').fill('workload');
    await dialog().getByLabel('Endpoint URL').fill('https://workload.example.com/mcp');
    await pick(
      dialog().getByRole('textbox', { name: 'Authentication' }),
      'Sluice signs in with a workload token (JWT bearer)',
    );
    await dialog().getByLabel('Workload token (JWT)').fill(jwt);
    await dialog().getByRole('button', { name: 'Register server' }).click();
    const workload = page.getByTestId('mcp-servers-table').getByRole('row').filter({ hasText: 'workload' });
    await workload.waitFor();
    await screenshot(page, 'admin-06a-mcp-machine-servers');

    const servers = (await api('GET', '/api/mcp/servers')).body as Array<Record<string, unknown>>;
    expect(servers.find((s) => s.name === 'internal')).toMatchObject({
      auth_type: 'oauth_client_credentials',
      oauth_client_id: 'sluice-m2m',
      has_oauth_client_secret: false,
      has_oauth_private_key: true,
    });
    expect(servers.find((s) => s.name === 'workload')).toMatchObject({ auth_type: 'oauth_jwt_bearer' });
    expect(JSON.stringify(servers)).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(servers)).not.toContain(jwt);
    for (const row of [internal, workload]) {
      await row.getByRole('button', { name: 'Delete' }).click();
      await dialog().getByRole('button', { name: 'Delete server' }).click();
      await row.waitFor({ state: 'detached' });
    }
  });

  it('MCP servers: one where each user connects through the company identity provider (422 at its client ID first), secrets write-only', async () => {
    await nav('MCP servers');
    await page.getByRole('button', { name: 'Register server' }).click();
    await dialog().getByLabel('Name').fill('sso-hub');
    await dialog().getByLabel('Endpoint URL').fill('https://sso-hub.example.com/mcp');
    await pick(
      dialog().getByRole('textbox', { name: 'Authentication' }),
      'Each user, via the company identity provider (token exchange)',
    );
    await dialog().getByLabel('Identity provider issuer').fill('https://login.example.com');
    await dialog().getByLabel('Identity provider client secret (optional)').fill('idp-client-secret');
    await dialog().getByLabel('Client ID', { exact: true }).fill('sluice-at-sso-hub');
    await dialog().getByLabel('Client secret', { exact: true }).fill('sso-hub-client-secret');
    const idpClient = dialog().getByLabel('Identity provider client ID');
    errors.expectFailure('/api/mcp/servers', 422);
    await dialog().getByRole('button', { name: 'Register server' }).click();
    expect(await fieldError(idpClient)).toBe('is required for auth_type oauth_token_exchange');
    await idpClient.fill('sluice-at-idp');
    await dialog().getByRole('button', { name: 'Register server' }).click();
    const row = page.getByTestId('mcp-servers-table').getByRole('row').filter({ hasText: 'sso-hub' });
    await row.waitFor();
    expect(await row.textContent()).toContain('oauth_token_exchange (client sluice-at-sso-hub)');
    await dialog().waitFor({ state: 'detached' });
    await screenshot(page, 'admin-06c-mcp-token-exchange-server');
    const servers = (await api('GET', '/api/mcp/servers')).body as Array<Record<string, unknown>>;
    expect(servers.find((s) => s.name === 'sso-hub')).toMatchObject({
      auth_type: 'oauth_token_exchange',
      oauth_client_id: 'sluice-at-sso-hub',
      has_oauth_client_secret: true,
      has_oauth_private_key: false,
      idp_issuer: 'https://login.example.com',
      idp_client_id: 'sluice-at-idp',
      has_idp_client_secret: true,
    });
    expect(JSON.stringify(servers)).not.toContain('idp-client-secret');
    expect(JSON.stringify(servers)).not.toContain('sso-hub-client-secret');
  });

  // Uses the server the previous step registered, and deletes it.
  it('MCP connections: a server of the identity provider takes an ID token; one that is not a JWT shows the 400 in the dialog', async () => {
    await nav('Connections');
    const row = page.getByTestId('mcp-connections-table').getByRole('row').filter({ hasText: 'sso-hub' });
    await row.getByText('not connected').waitFor();
    expect(await row.getByRole('button', { name: 'Connect', exact: true }).count()).toBe(0);
    await row.getByRole('button', { name: 'Connect with ID token' }).click();
    await dialog().getByLabel('ID token', { exact: true }).fill('not-a-jwt');
    errors.expectFailure('/api/mcp/connections/', 400);
    await dialog().getByRole('button', { name: 'Connect', exact: true }).click();
    await dialog().getByTestId('form-alert').getByText('id_token is not a JWT').waitFor();
    await screenshot(page, 'admin-06d-mcp-id-token-refused');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    expect(await row.textContent()).toContain('not connected');
    const server = ((await api('GET', '/api/mcp/servers')).body as Array<{ id: string; name: string }>).find(
      (s) => s.name === 'sso-hub',
    );
    expect((await api('DELETE', `/api/mcp/servers/${server?.id}`)).status).toBeLessThan(300);
  });

  it('MCP virtual servers: creates one from discovered tools (409 on a server name first), deletes it', async () => {
    await nav('MCP servers');
    await page.getByRole('button', { name: 'Create virtual server' }).click();
    await dialog().getByLabel('Name').fill('everything');
    await pickMany(dialog().getByRole('textbox', { name: 'Tools' }), 'everything__echo');
    errors.expectFailure('/api/mcp/virtual-servers', 409);
    await dialog().getByRole('button', { name: 'Create virtual server' }).click();
    await dialog().getByText('An MCP server has that name').waitFor();
    await dialog().getByLabel('Name').fill('curated');
    await dialog().getByRole('button', { name: 'Create virtual server' }).click();
    const row = page.getByTestId('mcp-virtual-servers-table').getByRole('row').filter({ hasText: 'curated' });
    await row.waitFor();
    expect(await row.textContent()).toContain('/mcp/curated');
    const virtuals = (await api('GET', '/api/mcp/virtual-servers')).body as Array<Record<string, unknown>>;
    expect(virtuals).toEqual([expect.objectContaining({ name: 'curated', tools: ['everything__echo'] })]);
    await screenshot(page, 'admin-06b-mcp-virtual-servers');
    await row.getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('button', { name: 'Delete virtual server' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('MCP tools: the browser lists discovered tools and shows an input schema as JSON', async () => {
    await nav('MCP tools');
    await page.getByLabel('Search').fill('echo');
    const row = page.getByTestId('mcp-tools-table').getByRole('row').filter({ hasText: 'everything__echo' });
    await row.click();
    const schema = page.getByTestId('detail-table');
    await schema.getByText('"message"', { exact: false }).first().waitFor();
    await screenshot(page, 'admin-07-mcp-tool-schema');
    await page.keyboard.press('Escape');
  });

  it('MCP logs: the gateway call is listed, filters apply, a user that does not exist shows at its field', async () => {
    await nav('MCP logs');
    await page.getByTestId('log-table').getByText('echo').first().waitFor();
    await page.getByTestId('log-table').getByRole('row').nth(1).click();
    await page.getByTestId('detail-table').getByText('everything').first().waitFor();
    await screenshot(page, 'admin-08-mcp-log-drawer');
    await page.keyboard.press('Escape');
    await pick(page.getByRole('textbox', { name: 'Status' }), 'error');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByTestId('log-table').getByText('No entries match.').waitFor();
    // The user filter takes a name or an email; one that names nobody is refused
    // at the field, before any request.
    const user = page.getByRole('textbox', { name: 'User', exact: true });
    await user.fill('not-a-user');
    await user.press('Escape'); // its suggestions' list closed
    await page.getByRole('button', { name: 'Apply filters' }).click();
    expect(await fieldError(user)).toBe('No user matches "not-a-user"');
  });

  it('access logs: requests made above are listed and filtered by path; a bad port shows at its field', async () => {
    await nav('Access logs');
    await page.getByLabel('Path contains').fill('/api/admin/users');
    // Access logs are written in batches: apply again until the requests are in.
    const paths = () => page.getByTestId('log-table').locator('tbody tr td:nth-child(4)').allTextContents();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Apply filters' }).click();
          const shown = await paths();
          return shown.length > 0 && shown.every((p) => p.includes('/api/admin/users'));
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(true);
    await page.getByTestId('log-table').getByRole('row').nth(1).click();
    await page.getByTestId('detail-table').getByText('user_agent').waitFor();
    await screenshot(page, 'admin-09-access-log-drawer');
    await page.keyboard.press('Escape');
    const port = page.getByLabel('Port', { exact: true });
    await port.fill('abc');
    errors.expectFailure('/api/admin/access-logs', 422);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    expect(await fieldError(port)).toMatch(/expected number/);
  });

  it('app logs: the view loads with a pager; from after to shows at the From field', async () => {
    await nav('App logs');
    await page.getByTestId('pager-summary').waitFor();
    await page.getByLabel('From', { exact: true }).fill('2026-02-02T00:00');
    await page.getByLabel('To', { exact: true }).fill('2026-02-01T00:00');
    errors.expectFailure('/api/admin/app-logs', 422);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    expect(await fieldError(page.getByLabel('From', { exact: true }))).toBe('must not be after to');
    await screenshot(page, 'admin-10-app-logs');
  });

  it('platform logs: exact action filter lists the role creations with details in the drawer; an unknown user shows at its field', async () => {
    await nav('Platform logs');
    await page.getByLabel('Action').fill('role.create');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.getByTestId('pager-summary').textContent()).toBe('1–2 of 2');
    await page.getByTestId('log-table').getByRole('row').nth(1).click();
    await page.getByTestId('detail-table').getByText('ui-role').first().waitFor();
    await screenshot(page, 'admin-11-platform-log-drawer');
    await page.keyboard.press('Escape');
    const user = page.getByRole('textbox', { name: 'User', exact: true });
    await user.fill('x');
    await user.press('Escape'); // its suggestions' list closed
    await page.getByRole('button', { name: 'Apply filters' }).click();
    expect(await fieldError(user)).toBe('No user matches "x"');
  });

  it("audit logs: full-text search finds a user's creation; from after to shows at its field", async () => {
    await nav('Audit logs');
    const everything = await page.getByTestId('pager-summary').textContent();
    await page.getByLabel('Search').fill('carol@ui2.example.com');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.getByTestId('pager-summary').textContent()).not.toBe(everything);
    const actions = await page.getByTestId('log-table').locator('tbody tr td:nth-child(2)').allTextContents();
    expect(actions).toContain('user.create');
    await screenshot(page, 'admin-12-audit-logs');
    await page.getByLabel('From', { exact: true }).fill('2026-02-02T00:00');
    await page.getByLabel('To', { exact: true }).fill('2026-02-01T00:00');
    errors.expectFailure('/api/audit/logs', 422);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    expect(await fieldError(page.getByLabel('From', { exact: true }))).toBe('must not be after to');
  });

  it('settings: a change is stored, an invalid value shows at its field, a secret stays write-only', async () => {
    await nav('Settings');
    // One tab per category the API lists, capitalised (OIDC in capitals).
    const categories = Object.keys((await api('GET', '/api/admin/settings')).body);
    const tabTitle = (c: string) => (c === 'oidc' ? 'OIDC' : `${c[0]?.toUpperCase()}${c.slice(1)}`);
    await page.getByRole('tab', { name: 'General', exact: true }).waitFor();
    expect(await page.getByRole('tab').allTextContents()).toEqual(categories.map(tabTitle));
    await page.getByRole('tab', { name: 'General', exact: true }).click();
    // Each input is labelled by its human name with the setting key beside it.
    const siteName = page.getByLabel('site_name');
    expect(await page.getByLabel('Site name site_name', { exact: true }).count()).toBe(1);
    await siteName.fill('Sluice UI2');
    await page.getByRole('button', { name: 'Save General' }).click();
    await expect
      .poll(async () => (await api('GET', '/api/admin/settings/category/general')).body.site_name)
      .toBe('Sluice UI2');
    await page.getByRole('tab', { name: 'Auth', exact: true }).click();
    const ttl = page.getByLabel('jwt_access_ttl_seconds');
    expect(await ttl.getAttribute('id')).toBe(
      await page.getByLabel('Access token lifetime (seconds)').getAttribute('id'),
    );
    await ttl.fill('10');
    errors.expectFailure('/api/admin/settings', 422);
    await page.getByRole('button', { name: 'Save Auth' }).click();
    expect(await fieldError(ttl)).toBe('Too small: expected number to be >=60');
    await screenshot(page, 'admin-13-settings-422');
    await page.getByRole('tab', { name: 'OIDC', exact: true }).click();
    const secret = page.getByLabel('oidc_client_secret');
    expect(await secret.inputValue()).toBe('');
    await page.getByText('a value is stored').waitFor();
    expect(await page.content()).not.toContain(OIDC_SECRET);
    await secret.fill('a-new-oidc-secret');
    await page.getByRole('button', { name: 'Save OIDC' }).click();
    await expect.poll(() => secret.inputValue()).toBe('');
    await screenshot(page, 'admin-14-settings-oidc');
    const audit = await api('GET', '/api/admin/platform-logs?action=settings.update&limit=1');
    expect(audit.body.entries[0].details.keys).toEqual(['oidc_client_secret']);
    expect(JSON.stringify(audit.body)).not.toContain('a-new-oidc-secret');
  });

  it('guardrails: the try-it box shows what a sample becomes under the rules as typed; a bad regex shows at its field', async () => {
    await nav('Settings');
    await page.getByRole('tab', { name: 'Security', exact: true }).click();
    // The JSON text is behind each guardrail's "Edit as JSON" toggle (the form is the default view).
    await editAsJson('redact');
    await editAsJson('content');
    // The label is the human name, then the key.
    const redact = page.getByLabel('Redaction rules redact', { exact: true });
    await redact.fill(
      JSON.stringify({
        detectors: ['email'],
        patterns: [{ name: 'ticket', regex: 'TCK-[0-9]+', apply_to: ['response'] }],
      }),
    );
    await page
      .getByLabel('Request content rules content', { exact: true })
      .fill(JSON.stringify({ deny: [{ name: 'no-codenames', regex: '(?i)codename\\s+[a-z]+' }] }));
    const tryBox = page.getByTestId('guardrails-try');
    await tryBox.getByLabel('Sample text').fill('Codename Falcon: mail a@b.io about TCK-42');
    await tryBox.getByRole('button', { name: 'Try it' }).click();
    await expect
      .poll(() => page.getByTestId('try-request').textContent())
      .toBe('Codename Falcon: mail [REDACTED:email] about TCK-42');
    expect(await page.getByTestId('try-response').textContent()).toBe(
      'Codename Falcon: mail a@b.io about [REDACTED:ticket]',
    );
    expect(await page.getByTestId('try-logs').textContent()).toBe(
      'Codename Falcon: mail [REDACTED:email] about [REDACTED:ticket]',
    );
    expect(await page.getByTestId('try-content').textContent()).toBe(
      'Request blocked by content rule "no-codenames"',
    );
    await screenshot(page, 'admin-14c-guardrails-try');
    // Nothing was saved by trying.
    expect((await api('GET', '/api/admin/settings/category/security')).body.redact).toEqual({});
    // A runaway pattern is refused at the field when saving.
    await redact.fill(JSON.stringify({ patterns: [{ name: 'slow', regex: '(a+)+' }] }));
    errors.expectFailure('/api/admin/settings', 422);
    await page.getByRole('button', { name: 'Save Security' }).click();
    expect(await fieldError(redact)).toMatch(/exponential time/);
    await redact.fill(JSON.stringify({ detectors: ['email'] }));
    await page.getByRole('button', { name: 'Save Security' }).click();
    await expect
      .poll(async () => (await api('GET', '/api/admin/settings/category/security')).body.redact)
      .toEqual({ detectors: ['email'] });
    await api('PATCH', '/api/admin/settings', { settings: { redact: {}, content: {} } });
  });

  it('guardrails: the structured editor saves a flag rule and a tool rule, shows them after a reload, a bad regex at its input, and feeds the try box', async () => {
    try {
      await nav('Settings');
      await page.reload(); // the last step reset the rules through the API
      await page.getByRole('tab', { name: 'Security', exact: true }).click();
      const content = guardrail('content');
      const tools = guardrail('inspect_tools');
      // security.content: a deny rule that flags, a prompt bound, a model viewers may not use.
      await content.getByRole('button', { name: 'Add deny rule' }).click();
      const rule = page.getByTestId('content-rule-0');
      await rule.getByLabel('Name', { exact: true }).fill('mentions-salary');
      await rule.getByLabel('Regex', { exact: true }).fill('(?i)salary');
      await pick(rule.getByRole('textbox', { name: 'Action' }), 'Flag');
      await content.getByLabel('Largest prompt (tokens)').fill('100000');
      const viewerDenied = content.getByLabel('Viewer: not these models', { exact: true });
      await viewerDenied.fill('gpt-4*');
      await viewerDenied.press('Enter');
      // security.inspect_tools: one rule with an argument regex, one refusing the tools outright.
      await tools.getByRole('button', { name: 'Add tool rule' }).click();
      await tools.getByRole('button', { name: 'Add tool rule' }).click();
      const toolRule = page.getByTestId('tool-rule-0');
      await toolRule.getByLabel('Name', { exact: true }).fill('no-prod');
      await toolRule.getByLabel('Tool', { exact: true }).fill('everything__*');
      await toolRule.getByLabel('Argument regex', { exact: true }).fill('(?i)\\bprod\\b');
      await page.getByTestId('tool-rule-1').getByLabel('Name', { exact: true }).fill('no-deletes');
      await page.getByTestId('tool-rule-1').getByLabel('Tool', { exact: true }).fill('*__delete_*');
      await screenshot(page, 'admin-14c2-guardrails-editor');
      await page.getByRole('button', { name: 'Save Security' }).click();
      // Saved as the PATCH takes it: no empty optional fields (no argument_regex on the second rule).
      const saved = {
        content: {
          deny: [{ name: 'mentions-salary', regex: '(?i)salary', action: 'flag' }],
          max_prompt_tokens: 100000,
          deny_models: { viewer: ['gpt-4*'] },
        },
        inspect_tools: {
          deny: [
            { name: 'no-prod', tool: 'everything__*', argument_regex: '(?i)\\bprod\\b' },
            { name: 'no-deletes', tool: '*__delete_*' },
          ],
        },
      };
      const security = async () => (await api('GET', '/api/admin/settings/category/security')).body;
      await expect
        .poll(async () => {
          const { content, inspect_tools } = await security();
          return { content, inspect_tools };
        })
        .toEqual(saved);
      expect((await security()).redact).toEqual({});
      // After a reload the form shows what was stored.
      await page.reload();
      await page.getByRole('tab', { name: 'Security', exact: true }).click();
      expect(await rule.getByLabel('Name', { exact: true }).inputValue()).toBe('mentions-salary');
      expect(await rule.getByLabel('Regex', { exact: true }).inputValue()).toBe('(?i)salary');
      expect(await rule.getByRole('textbox', { name: 'Action' }).inputValue()).toBe('Flag');
      expect(await content.getByLabel('Largest prompt (tokens)').inputValue()).toBe('100000');
      expect(await page.getByTestId('content-models').textContent()).toContain('gpt-4*');
      expect(await toolRule.getByLabel('Argument regex', { exact: true }).inputValue()).toBe(
        '(?i)\\bprod\\b',
      );
      expect(
        await page.getByTestId('tool-rule-1').getByLabel('Argument regex', { exact: true }).inputValue(),
      ).toBe('');
      // The JSON view edits the same value: what it shows parses to the stored setting; an edit
      // there shows in the form.
      await editAsJson('inspect_tools');
      const toolsJson = page.getByLabel('MCP tool-call deny rules inspect_tools', { exact: true });
      expect(JSON.parse(await toolsJson.inputValue())).toEqual(saved.inspect_tools);
      await toolsJson.fill(
        JSON.stringify({ deny: [saved.inspect_tools.deny[0], { name: 'no-drops', tool: 'db__drop_*' }] }),
      );
      await editAsJson('inspect_tools', false);
      expect(await page.getByTestId('tool-rule-1').getByLabel('Name', { exact: true }).inputValue()).toBe(
        'no-drops',
      );
      // Bad values answer 422 at the input they name: settings.content.deny.0.regex, settings.inspect_tools.deny.1.tool.
      const regex = rule.getByLabel('Regex', { exact: true });
      await regex.fill('(a+)+');
      const tool = page.getByTestId('tool-rule-1').getByLabel('Tool', { exact: true });
      await tool.fill('db drop');
      errors.expectFailure('/api/admin/settings', 422);
      await page.getByRole('button', { name: 'Save Security' }).click();
      expect(await fieldError(regex)).toMatch(/exponential time/);
      expect(await fieldError(tool)).toBe('must be a <server>__<tool> glob without spaces');
      await screenshot(page, 'admin-14c3-guardrails-editor-422');
      expect((await security()).content).toEqual(saved.content);
      // The try box sends the rules as typed in the form, saved or not.
      await regex.fill('(?i)salary');
      await guardrail('redact').getByLabel('Email addresses').check();
      const tryBox = page.getByTestId('guardrails-try');
      await tryBox.getByLabel('Sample text').fill('What is the salary of a@b.io?');
      await tryBox.getByRole('button', { name: 'Try it' }).click();
      await expect
        .poll(() => page.getByTestId('try-content').textContent())
        .toBe('Allowed, flagged by "mentions-salary"');
      expect(await page.getByTestId('try-request').textContent()).toBe(
        'What is the salary of [REDACTED:email]?',
      );
      await pick(rule.getByRole('textbox', { name: 'Action' }), 'Block');
      await tryBox.getByRole('button', { name: 'Try it' }).click();
      await expect
        .poll(() => page.getByTestId('try-content').textContent())
        .toBe('Request blocked by content rule "mentions-salary"');
      await screenshot(page, 'admin-14c4-guardrails-editor-try');
      // Nothing was saved by trying.
      expect((await security()).redact).toEqual({});
    } finally {
      await api('PATCH', '/api/admin/settings', { settings: { redact: {}, content: {}, inspect_tools: {} } });
    }
  });

  it('site name: set through the API, the header, the tab title and the sign-in page show it; a settings save updates them', async () => {
    try {
      await created('PATCH', '/api/admin/settings', { settings: { site_name: 'Acme AI' } });
      await page.reload();
      await expect.poll(() => page.getByTestId('site-name').textContent()).toBe('Acme AI');
      await expect.poll(() => page.title()).toContain('Acme AI');
      expect(await page.title()).toBe('Settings · Acme AI');
      // Before anyone signs in (a fresh browser context), the sign-in page reads it too.
      const fresh = await session.browser.newContext();
      try {
        const signInPage = await fresh.newPage();
        await signInPage.goto(`${stack.consoleUrl}/login`);
        await signInPage.getByRole('heading', { name: 'Acme AI' }).waitFor();
        expect(await signInPage.title()).toContain('Acme AI');
        await screenshot(signInPage, 'admin-14b-sign-in-site-name');
      } finally {
        await fresh.close();
      }
      // Saved on the settings page, the header and the tab title follow without a reload.
      await page.getByRole('tab', { name: 'General', exact: true }).click();
      const siteName = page.getByLabel('site_name');
      expect(await siteName.inputValue()).toBe('Acme AI');
      await siteName.fill('Sluice');
      await page.getByRole('button', { name: 'Save General' }).click();
      await expect.poll(() => page.getByTestId('site-name').textContent()).toBe('Sluice');
      await expect.poll(() => page.title()).toBe('Settings · Sluice');
    } finally {
      await api('PATCH', '/api/admin/settings', { settings: { site_name: 'Sluice' } });
    }
  });

  it('gateway logs: a cache hit shows its badge; a $0 or unknown cost says why (cache hit, unpriced model, failed before any tokens)', async () => {
    const providers = (await api('GET', '/api/admin/providers')).body as Array<{
      id: string;
      name: string;
    }>;
    const route = (upstream_model: string) => ({
      provider_id: providers.find((p) => p.name === 'fake-openai')?.id,
      upstream_model,
    });
    const prices = { input_price_per_mtok: 1.5, output_price_per_mtok: 6 };
    await created('POST', '/api/admin/models', {
      name: PRICED_MODEL,
      ...prices,
      routes: [route('test-model')],
    });
    await created('POST', '/api/admin/models', {
      name: FAILING_MODEL,
      ...prices,
      routes: [route('fail-400')],
    });
    await created('POST', '/api/admin/models', {
      name: UNPRICED_MODEL,
      routes: [route('not-in-the-price-table')],
    });
    // A key of its own: the seeded key's counters stay as the limits steps left them.
    const key = await created('POST', '/api/keys', { name: 'logs key' });
    const call = async (model: string, content: string) => {
      const res = await fetch(`${stack.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
      });
      await res.text();
      return res;
    };
    const first = await call(PRICED_MODEL, 'answer me twice');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-sluice-cache')).toBe('MISS');
    // The same request again is answered from the response cache once the first answer is stored.
    await expect
      .poll(async () => (await call(PRICED_MODEL, 'answer me twice')).headers.get('x-sluice-cache'), {
        timeout: 10_000,
        interval: 250,
      })
      .toBe('HIT');
    expect((await call(FAILING_MODEL, 'fails')).status).toBeGreaterThanOrEqual(400);
    expect((await call(UNPRICED_MODEL, 'no price')).status).toBe(200);
    // The request log is written in batches: wait until all of them are in.
    type Entry = { model: string; cache_hit: boolean };
    const logged = async (model: string) =>
      ((await api('GET', `/api/gateway/logs?model=${model}`)).body.entries as Entry[]) ?? [];
    await expect
      .poll(async () => (await logged(PRICED_MODEL)).some((e) => e.cache_hit), {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(true);
    await expect.poll(async () => (await logged(FAILING_MODEL)).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => (await logged(UNPRICED_MODEL)).length, { timeout: 30_000 }).toBe(1);
    // Every call until the hit was a miss: one row each.
    const pricedCalls = (await logged(PRICED_MODEL)).length;

    await nav('Gateway logs');
    const rows = (model: string) =>
      page.getByTestId('gateway-logs-table').getByRole('row').filter({ hasText: model });
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh', exact: true }).click();
        return rows(PRICED_MODEL).count();
      })
      .toBe(pricedCalls);
    await rows(UNPRICED_MODEL).waitFor();
    const badge = page.getByTestId('cache-hit-badge');
    const hit = rows(PRICED_MODEL).filter({ has: badge });
    expect(await hit.count()).toBe(1);
    expect(await hit.getByTestId('cache-hit-badge').textContent()).toBe('cache hit');
    expect(await hit.getByTestId('cost-amount').textContent()).toBe('$0.00');
    expect(await hit.getByTestId('cost-reason').textContent()).toBe('cache hit');
    // The answered misses cost something: no reason shown.
    const misses = rows(PRICED_MODEL).filter({ hasNot: badge });
    expect(await misses.count()).toBe(pricedCalls - 1);
    expect(await misses.getByTestId('cost-reason').count()).toBe(0);
    for (const amount of await misses.getByTestId('cost-amount').allTextContents())
      expect(amount).toMatch(/^\$0\.0*[1-9]\d*$/);
    const failed = rows(FAILING_MODEL);
    expect(await failed.getByTestId('cost-amount').textContent()).toBe('$0.00');
    expect(await failed.getByTestId('cost-reason').textContent()).toBe('failed before any tokens');
    expect(await failed.getByTestId('cache-hit-badge').count()).toBe(0);
    const unpriced = rows(UNPRICED_MODEL);
    expect(await unpriced.getByTestId('cost-amount').textContent()).toBe('—');
    expect(await unpriced.getByTestId('cost-reason').textContent()).toBe('unpriced model');
    await screenshot(page, 'admin-14d-gateway-logs-cost-reasons');
  });

  it('analytics: the requests and tokens chart plots the tokens too, as a line on its own axis', async () => {
    await nav('Analytics');
    await page.reload();
    const chart = page.getByTestId('usage-chart');
    await chart.getByText('Requests', { exact: true }).waitFor();
    await chart.getByText('Tokens', { exact: true }).waitFor();
    // Two value axes: requests on the left, tokens on the right.
    await expect.poll(() => chart.locator('.recharts-yAxis').count()).toBe(2);
    // The page's default range (the last 7 days by day): the last period is today's.
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const series = (await api('GET', `/api/analytics/usage?group_by=day&from=${encodeURIComponent(from)}`))
      .body.data as Array<{ request_count: number; total_tokens: number }>;
    const today = series.at(-1);
    expect(today?.total_tokens).toBeGreaterThan(0);
    const dots = chart.locator('.recharts-line-dot');
    await expect.poll(() => dots.count()).toBe(series.length);
    // Hovering today's point shows both of its values.
    await dots.last().hover({ force: true });
    const tooltip = chart.locator('.recharts-tooltip-wrapper');
    const shown = (value: number | undefined) => page.evaluate((n) => (n ?? 0).toLocaleString(), value);
    await expect.poll(() => tooltip.textContent()).toContain(`Tokens${await shown(today?.total_tokens)}`);
    expect(await tooltip.textContent()).toContain(`Requests${await shown(today?.request_count)}`);
    await screenshot(page, 'admin-14e-analytics-tokens');
  });

  it("keys and limits: a key's RPM is one of its limits, worded the same on the API keys page and the limits page", async () => {
    const key = await created('POST', '/api/keys', { name: 'rpm key', rate_limit_rpm: 30 });
    await created('PUT', `/api/admin/limits/api_key/${key.id}/budgets`, {
      budgets: [{ period: 'daily', limit_tokens: 5000 }],
    });
    try {
      await nav('API keys');
      const row = (name: string) => page.getByTestId('keys-table').getByRole('row').filter({ hasText: name });
      await expect
        .poll(() => row('rpm key').getByTestId('key-rpm-limit').textContent())
        .toBe('30 requests / 1m');
      await expect
        .poll(() => row('rpm key').getByTestId('key-limit').allTextContents())
        .toEqual(['5,000 tokens / daily']);
      // The seeded key has no RPM: its own rule and budget only.
      expect(await row('limits key').getByTestId('key-rpm-limit').count()).toBe(0);
      await expect
        .poll(() => row('limits key').getByTestId('key-limit').allTextContents())
        .toEqual(['50 requests / 1m', '100,000 tokens / monthly']);
      await screenshot(page, 'admin-14f-keys-limits');

      await nav('Limits');
      await page.getByRole('tab', { name: 'API keys' }).click();
      const option = (await keyOption(key.id)) ?? '';
      await page.getByRole('textbox', { name: 'API key' }).fill(option.slice(0, option.indexOf(' (')));
      await page.getByRole('option', { name: option, exact: true }).click();
      const form = page.getByTestId('subject-limits-form');
      await expect.poll(() => form.getByTestId('key-rpm-limit').textContent()).toBe('30 requests / 1m');
      // It is no editable rule: the key's RPM is changed with the key.
      expect(await form.getByTestId('rule-row').count()).toBe(0);
      // The live usage counts against it as the key's requests / 1m limit.
      const bar = page.getByTestId('usage-bar').filter({ hasText: 'requests / 1m' });
      await expect.poll(() => bar.getByTestId('usage-figures').textContent()).toBe('0 / 30');
      await page.getByTestId('usage-bar').filter({ hasText: 'tokens / daily' }).waitFor();
      await screenshot(page, 'admin-14g-limits-key-rpm');
    } finally {
      await api('DELETE', `/api/keys/${key.id}`);
    }
  });

  it('a user sees their keys, usage and MCP tools, and no admin sections', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    await signIn(MEMBER.email, MEMBER.password);
    const links = await page.getByRole('navigation').getByRole('link').allTextContents();
    expect(links).toEqual(expect.arrayContaining(['Analytics', 'API keys', 'MCP tools']));
    for (const admin of [
      'Users',
      'Settings',
      'Limits',
      'MCP servers',
      'MCP logs',
      'Platform logs',
      'Audit logs',
    ])
      expect(links).not.toContain(admin);
    await nav('MCP tools');
    await page.getByTestId('mcp-tools-table').getByText('everything__echo').waitFor();
    await screenshot(page, 'admin-15-user-mcp-tools');
  });

  it('logged no console errors and no uncaught exceptions in the browser', () => {
    expect(errors.list()).toEqual([]);
  });
});

/** The label the key picker shows for a key (the seeded one unless told). */
async function keyOption(id = keyId): Promise<string | undefined> {
  const listed = (await api('GET', '/api/admin/keys')).body as Array<{
    id: string;
    name: string;
    prefix: string;
    owner_email: string;
  }>;
  const key = listed.find((k) => k.id === id);
  return key && `${key.name} (${key.prefix}…) — ${key.owner_email}`;
}

async function memberId(): Promise<string> {
  const users = (await api('GET', '/api/admin/users?limit=200')).body as Array<{
    id: string;
    email: string;
  }>;
  return users.find((u) => u.email === MEMBER.email)?.id ?? '';
}
