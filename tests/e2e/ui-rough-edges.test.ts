// The rough edges a new admin hits, in a real browser (Debian's chromium through playwright-core)
// on a stack started as `npm start` does, on ports other than 3000 / 3001: the analytics cost total
// says what it leaves out (+ N unpriced requests, linked to those requests in the gateway logs, and
// the unpriced models named under the cost chart); the access log records the ports the servers
// listen on, names its users and leaves out the web UI's asset loads; gateway-log times have
// seconds, the status filter is a choice of classes and codes, and the API key and user filters
// take names with suggestions; the app log has the servers' lines; the platform log is the audit
// trail's management operations, without its sign-ins.
import OpenAI from 'openai';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstreams } from '../fakes/server';
import { type BrowserErrors, screenshot } from '../helpers/browser';
import { http } from '../helpers/http';
import { closeOpenDialogs, navigate, startUiSession, type UiSession } from '../helpers/ui-session';
import type { StartedStack } from '../setup/e2e-global';

// Own database and Redis db: nothing shared with other suites' stacks.
const DATABASE = process.env.TEST_UI_EDGES_DATABASE ?? 'sluice_ui_rough_edges';
const REDIS_URL = process.env.TEST_UI_EDGES_REDIS_URL ?? 'redis://127.0.0.1:6379/13';
const ADMIN = {
  email: 'admin@ui48.example.com',
  display_name: 'Edge Admin',
  password: 'correct horse battery',
};
const MEMBER = {
  email: 'member@ui48.example.com',
  display_name: 'Mia Member',
  password: 'member password 1',
};
const PRICED = 'ui48-priced';
const UNPRICED = 'ui48-unpriced';
const NO_SUCH_MODEL = 'ui48-no-such-model';
const ADMIN_KEY = 'admin ci key';
const MEMBER_KEY = 'member laptop key';

let session: UiSession;
let stack: StartedStack;
let fakes: FakeUpstreams;
let page: Page;
let errors: BrowserErrors;
let token = '';
let adminId = '';
let memberId = '';
let memberKeyId = '';

const api = (method: string, path: string, body?: unknown) =>
  http(method, `${stack.consoleUrl}${path}`, { token, body });

async function created(method: string, path: string, body: unknown, as = token) {
  const res = await http(method, `${stack.consoleUrl}${path}`, { token: as, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const portOf = (url: string) => Number(new URL(url).port);

interface LoggedRequest {
  model: string;
  status_code: number;
  cost_usd: number | null;
  api_key_id: string | null;
  user_id: string | null;
}

/** Every request the gateway logged so far (one page is enough here). */
async function logged(): Promise<LoggedRequest[]> {
  return (await api('GET', '/api/gateway/logs?limit=200')).body.entries as LoggedRequest[];
}

/**
 * Two users, each with a key; a priced and an unpriced model; requests of both through the
 * gateway (4 unpriced: 3 by the admin's key, 1 by the member's) and one refused (404).
 */
async function seed(): Promise<void> {
  const setup = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, { body: { admin: ADMIN } });
  expect(setup.status).toBe(200);
  token = setup.body.access_token;
  adminId = setup.body.user.id;
  memberId = (await created('POST', '/api/admin/users', { ...MEMBER, role: 'user' })).id;
  const provider = await created('POST', '/api/admin/providers', {
    name: 'fake-openai',
    display_name: 'Fake OpenAI',
    provider_type: 'openai',
    base_url: fakes.baseUrlFor('openai'),
    api_key: fakes.apiKeyFor('openai'),
  });
  const route = { provider_id: provider.id, upstream_model: 'test-model' };
  await created('POST', '/api/admin/models', {
    name: PRICED,
    input_price_per_mtok: 1,
    output_price_per_mtok: 2,
    routes: [route],
  });
  await created('POST', '/api/admin/models', {
    name: UNPRICED,
    routes: [{ ...route, upstream_model: 'not-in-the-price-table' }],
  });
  const adminKey = await created('POST', '/api/keys', { name: ADMIN_KEY });
  const member = await http('POST', `${stack.consoleUrl}/api/auth/login`, {
    body: { email: MEMBER.email, password: MEMBER.password },
  });
  const memberKey = await created('POST', '/api/keys', { name: MEMBER_KEY }, member.body.access_token);
  memberKeyId = memberKey.id;
  const client = (key: string) =>
    new OpenAI({ apiKey: key, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
  const chat = (key: string, model: string, content: string) =>
    client(key).chat.completions.create({ model, messages: [{ role: 'user', content }] });
  await chat(adminKey.key, PRICED, 'priced one');
  await chat(adminKey.key, PRICED, 'priced two');
  for (const n of [1, 2, 3]) await chat(adminKey.key, UNPRICED, `unpriced ${n}`);
  await chat(memberKey.key, UNPRICED, 'unpriced by the member');
  const refused = await chat(adminKey.key, NO_SUCH_MODEL, 'refused').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(OpenAI.APIError);
  // The request log is written in batches: wait until all seven are in.
  const deadline = Date.now() + 30_000;
  while ((await logged()).length < 7) {
    if (Date.now() > deadline) throw new Error(`only ${(await logged()).length} of 7 requests logged`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(async () => {
  session = await startUiSession({ database: DATABASE, redisUrl: REDIS_URL });
  ({ stack, fakes, page, errors } = session);
  await seed();
});

afterAll(async () => {
  await session?.close();
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail')
    await screenshot(page, `edges-failed-${context.task.name.split(':')[0]}`);
});
beforeEach(() => closeOpenDialogs(page));

/** Opens a screen from the navigation and waits for its title: tables of the last one are gone. */
async function nav(label: string): Promise<void> {
  await navigate(page, label);
  await page.getByRole('heading', { name: label, exact: true }).waitFor();
}
/** A text input by its label (an autocomplete's list is labelled by it too). */
const input = (label: string) => page.getByRole('textbox', { name: label, exact: true });
const gatewayTable = () => page.getByTestId('gateway-logs-table');
const logTable = () => page.getByTestId('log-table');
const apply = () => page.getByRole('button', { name: 'Apply', exact: true }).click();
const applyFilters = () => page.getByRole('button', { name: 'Apply filters' }).click();

/** Model, status and time of each gateway-log row on screen (the empty-state row has none). */
const gatewayRows = () =>
  gatewayTable()
    .locator('tbody tr')
    .evaluateAll((rows) =>
      (rows as HTMLTableRowElement[])
        .filter((r) => r.cells.length > 3)
        .map((r) => ({
          time: r.cells[0]?.textContent ?? '',
          model: r.cells[1]?.textContent ?? '',
          status: r.cells[3]?.textContent ?? '',
        })),
    );

/** The text of one column of a log view's rows on screen. */
const column = (index: number) =>
  logTable()
    .locator('tbody tr')
    .evaluateAll(
      (rows, i) =>
        (rows as HTMLTableRowElement[])
          .filter((r) => r.cells.length > 3)
          .map((r) => r.cells[i]?.textContent ?? ''),
      index,
    );

/** Picks an option of a Mantine select or autocomplete. */
async function pick(input: Locator, option: string): Promise<void> {
  await input.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The validation message Mantine renders under an input: the element with id `<input id>-error`. */
async function fieldError(input: Locator): Promise<string> {
  const id = await input.getAttribute('id');
  const error = page.locator(`[id="${id}-error"]`);
  await error.waitFor({ timeout: 10_000 });
  return (await error.textContent()) ?? '';
}

describe("a new admin's rough edges, in a real browser", () => {
  it('signs in as the admin', async () => {
    await page.goto(`${stack.consoleUrl}/login`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/analytics');
  });

  it('analytics: the total cost says what it leaves out (+ 4 unpriced requests) and names the unpriced model', async () => {
    const stats = (await api('GET', '/api/analytics/costs/stats')).body;
    expect(stats).toMatchObject({ unpriced_requests: 4, unpriced_models: { [UNPRICED]: 4 } });
    // Priced models only (the refused request's model is priced at 0): never the unpriced one.
    expect(Object.keys(stats.by_model)).toContain(PRICED);
    expect(Object.keys(stats.by_model)).not.toContain(UNPRICED);
    const more = page.getByTestId('unpriced-requests');
    await expect.poll(() => more.textContent()).toBe('+ 4 unpriced requests');
    // What the total is, as formatUsd writes it: the priced requests' cost, never a bare $0.
    const total: number = stats.total_cost_usd;
    expect(total).toBeGreaterThan(0);
    expect(await page.getByTestId('stat-cost').textContent()).toBe(`$${total.toFixed(total < 0.01 ? 6 : 2)}`);
    // Under the cost chart: which model it cannot show, and where to price it.
    const models = page.getByTestId('unpriced-models');
    expect(await models.textContent()).toContain(`${UNPRICED} (4 requests)`);
    expect(await models.getByRole('link', { name: 'Models & routes' }).getAttribute('href')).toBe('/models');
    await screenshot(page, 'edges-01-analytics-unpriced');
  });

  it('analytics → gateway logs: the link lists exactly the unpriced requests, the filter shown as set', async () => {
    await page.getByTestId('unpriced-requests').click();
    await page.waitForURL('**/logs/gateway?unpriced=true*');
    await expect.poll(gatewayRows).toHaveLength(4);
    expect((await gatewayRows()).map((r) => r.model)).toEqual([UNPRICED, UNPRICED, UNPRICED, UNPRICED]);
    expect(await page.getByLabel('Unpriced models only').isChecked()).toBe(true);
    const reasons = await gatewayTable().getByTestId('cost-reason').allTextContents();
    expect(reasons).toEqual(['unpriced model', 'unpriced model', 'unpriced model', 'unpriced model']);
    await screenshot(page, 'edges-02-gateway-logs-unpriced');
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await expect.poll(gatewayRows).toHaveLength(7);
  });

  it('gateway logs: times read to the second', async () => {
    const times = (await gatewayRows()).map((r) => r.time);
    expect(times).toHaveLength(7);
    // Seconds after the minutes, whatever the browser's locale writes around them.
    for (const time of times) expect(time).toMatch(/\d{1,2}:\d{2}:\d{2}/);
  });

  it('gateway logs: the status filter is a choice of classes and codes the API takes', async () => {
    const status = input('Status');
    await status.click();
    const options = await page.getByRole('option').allTextContents();
    expect(options).toEqual(
      expect.arrayContaining(['2xx — success', '4xx — client errors', '5xx — server errors']),
    );
    expect(options).toEqual(
      expect.arrayContaining(['429 Too Many Requests', '404 Not Found', '502 Bad Gateway']),
    );
    await page.getByRole('option', { name: '4xx — client errors', exact: true }).click();
    await apply();
    await expect
      .poll(gatewayRows)
      .toEqual([expect.objectContaining({ model: NO_SUCH_MODEL, status: '404' })]);
    await screenshot(page, 'edges-03-gateway-logs-status-class');
    await pick(status, '2xx — success');
    await apply();
    await expect.poll(async () => (await gatewayRows()).length).toBe(6);
    expect(new Set((await gatewayRows()).map((r) => r.status))).toEqual(new Set(['200']));
    await pick(status, '429 Too Many Requests');
    await apply();
    await gatewayTable().getByText('No requests match.').waitFor();
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await expect.poll(gatewayRows).toHaveLength(7);
  });

  it('gateway logs: the API key filter takes a key by name, from its suggestions', async () => {
    const key = input('API key');
    await key.fill('laptop');
    // The suggestion names the key, its prefix and its owner.
    const suggestion = page.getByRole('option', { name: new RegExp(`^${MEMBER_KEY} \\(sluice-`) });
    await suggestion.waitFor();
    expect(await suggestion.textContent()).toMatch(new RegExp(`— ${MEMBER.email}$`));
    await screenshot(page, 'edges-04-gateway-logs-key-suggestions');
    await suggestion.click();
    await apply();
    await expect.poll(gatewayRows).toEqual([expect.objectContaining({ model: UNPRICED, status: '200' })]);
    // The API was asked for that key's id.
    const mine = (await logged()).filter((e) => e.api_key_id === memberKeyId);
    expect(mine.map((e) => e.model)).toEqual([UNPRICED]);
    // The bare name works too.
    await key.fill(ADMIN_KEY);
    await key.press('Escape');
    await apply();
    await expect.poll(async () => (await gatewayRows()).length).toBe(6);
    // A name no key has is refused at the field, and nothing is asked of the API.
    await key.fill('no such key');
    await key.press('Escape');
    await apply();
    expect(await fieldError(key)).toBe('No API key matches "no such key"');
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
  });

  it('gateway logs: the user filter takes a name or an email, with suggestions', async () => {
    const user = input('User');
    await user.fill('Mia');
    await page.getByRole('option', { name: `${MEMBER.display_name} <${MEMBER.email}>` }).click();
    await apply();
    await expect.poll(gatewayRows).toEqual([expect.objectContaining({ model: UNPRICED })]);
    expect((await logged()).filter((e) => e.user_id === memberId)).toHaveLength(1);
    await user.fill(ADMIN.email.toUpperCase());
    await user.press('Escape');
    await apply();
    await expect.poll(async () => (await gatewayRows()).length).toBe(6);
    await user.fill('nobody at all');
    await user.press('Escape');
    await apply();
    expect(await fieldError(user)).toBe('No user matches "nobody at all"');
    await screenshot(page, 'edges-05-gateway-logs-unknown-user');
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
  });

  it('access logs: the ports the servers listen on, user names instead of ids, no asset loads of the web UI', async () => {
    const gatewayPort = portOf(stack.gatewayUrl);
    const consolePort = portOf(stack.consoleUrl);
    expect([gatewayPort, consolePort]).not.toContain(3000);
    // The API: every record carries its server and that server's port, never a default one.
    const sources = async (query: string) =>
      (await api('GET', `/api/admin/access-logs?limit=200&${query}`)).body as {
        total: number;
        entries: Array<{ source: string; port: number; path: string; user_id: string | null }>;
      };
    await expect
      .poll(async () => (await sources(`port=${gatewayPort}&path=/v1/chat/completions`)).total, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(7);
    expect((await sources('source=gateway')).entries.every((e) => e.port === gatewayPort)).toBe(true);
    expect((await sources('source=console')).entries.every((e) => e.port === consolePort)).toBe(true);
    for (const port of [3000, 3001]) expect((await sources(`port=${port}`)).total, String(port)).toBe(0);
    // The browser loaded the UI's scripts and styles: none of those loads is recorded; the page is.
    expect((await sources('path=/assets/')).total).toBe(0);
    expect((await sources('path=/login&source=console')).entries.map((e) => e.path)).toContain('/login');

    await nav('Access logs');
    await page.getByLabel('Path contains').fill('/api/keys');
    // Until the table shows the filtered rows (not the unfiltered ones it showed before).
    await expect
      .poll(
        async () => {
          await applyFilters();
          const paths = await column(3);
          return paths.length > 0 && paths.every((path) => path.includes('/api/keys'));
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(true);
    // Server and port as recorded; the user by name and email, never a UUID.
    expect(new Set(await column(1))).toEqual(new Set([`console :${consolePort}`]));
    const users = await column(6);
    expect(users).toContain(`${ADMIN.display_name} <${ADMIN.email}>`);
    expect(users).toContain(`${MEMBER.display_name} <${MEMBER.email}>`);
    for (const shown of users) expect(shown).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    await screenshot(page, 'edges-06-access-logs');
    // The gateway's requests, by the server filter; the admin's only, by the user filter (a name).
    await page.getByRole('button', { name: 'Reset' }).click();
    await pick(input('Server'), 'gateway');
    await input('User').fill(ADMIN.display_name);
    await input('User').press('Escape');
    await pick(input('Status'), '2xx — success');
    await applyFilters();
    await expect.poll(async () => new Set(await column(1))).toEqual(new Set([`gateway :${gatewayPort}`]));
    expect(new Set(await column(6))).toEqual(new Set([`${ADMIN.display_name} <${ADMIN.email}>`]));
    expect(new Set(await column(3))).toEqual(new Set(['/v1/chat/completions']));
    const adminRequests = (await sources(`source=gateway&user_id=${adminId}&status_code=2xx`)).total;
    expect(await page.getByTestId('pager-summary').textContent()).toBe(
      `1–${adminRequests} of ${adminRequests}`,
    );
  });

  it("app logs: the servers' own lines are there (the page was empty on a healthy stack)", async () => {
    await nav('App logs');
    await page.getByLabel('Target contains').fill('server');
    await applyFilters();
    await expect
      .poll(async () => (await column(4)).join('\n'), { timeout: 20_000 })
      .toContain('gateway isolate started');
    const messages = await column(4);
    expect(messages).toContain('console started');
    expect(messages).toContain(`console: listening on http://127.0.0.1:${portOf(stack.consoleUrl)}`);
    expect(new Set(await column(2))).toEqual(new Set(['gateway', 'console']));
    await screenshot(page, 'edges-07-app-logs');
  });

  it('platform logs are the management operations; the audit logs have the sign-ins too', async () => {
    await nav('Audit logs');
    await expect.poll(() => column(1)).toContain('auth.login');
    const audit = await column(1);
    expect(audit).toEqual(expect.arrayContaining(['key.create', 'model.create', 'user.create']));
    await nav('Platform logs');
    await expect.poll(() => column(1)).toContain('key.create');
    const platform = await column(1);
    expect(platform.filter((action) => action.startsWith('auth.'))).toEqual([]);
    expect(platform).toEqual(audit.filter((action) => !action.startsWith('auth.')));
    await screenshot(page, 'edges-08-platform-logs');
    // Its user filter takes a name too: the member made nothing but a key.
    await input('User').fill(MEMBER.email);
    await input('User').press('Escape');
    await applyFilters();
    await expect.poll(() => column(1)).toEqual(['key.create']);
  });

  it('logged no console errors and no uncaught exceptions in the browser', () => {
    expect(errors.list()).toEqual([]);
  });
});
