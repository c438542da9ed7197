// More of the web UI in a real browser (Debian's chromium through playwright-core): the
// expiring-keys view, a provider's edit / deactivate / activate / delete, reordering a model's
// routes, the unpriced flag, a model's kind (embedding / chat) and routing strategy, the gateway logs filtered by status and model after real
// SDK calls (one failing), with a 422 shown at its filter, and the analytics by endpoint after chat and
// embeddings calls, and a route benched after real connection failures flagged on the Models page;
// a model's output cap, cache breakpoints and cache write prices, the price table's write prices,
// and a refused SDK call shown by client and error type in the gateway logs and analytics.
// Every change is checked through the API.
import OpenAI from 'openai';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstreams } from '../fakes/server';
import { type BrowserErrors, screenshot } from '../helpers/browser';
import { http } from '../helpers/http';
import { closeOpenDialogs, navigate, startUiSession, type UiSession } from '../helpers/ui-session';
import type { StartedStack } from '../setup/e2e-global';

// The UI files run one after another, each on a stack and database of its own making.
const DATABASE = process.env.TEST_UI_DATABASE ?? 'sluice_ui_e2e';
const REDIS_URL = process.env.TEST_UI_REDIS_URL ?? 'redis://127.0.0.1:6379/3';
const ADMIN = {
  email: 'admin@ui3.example.com',
  display_name: 'UI3 Admin',
  password: 'correct horse battery',
};
const OK_MODEL = 'ui3-ok';
const FAILING_MODEL = 'ui3-fails';
const TWO_ROUTES = 'ui3-two-routes';
const UNPRICED = 'ui3-unpriced';
const VECTORS = 'ui3-vectors';
const EMBEDDER = 'ui3-embedder';
const BENCHED = 'ui3-benched';
const WEIGHTED = 'ui3-weighted';
const AGENT = 'ui3-agent';
const PRICED_UPSTREAM = 'ui3-upstream';
const NO_SUCH_MODEL = 'ui3-no-such-model';
const PRICES = { input_price_per_mtok: 1.5, output_price_per_mtok: 6 };

let session: UiSession;
let stack: StartedStack;
let fakes: FakeUpstreams;
let page: Page;
let errors: BrowserErrors;
let token = '';
let gatewayKey = '';
let spareProviderId = '';

const api = (method: string, path: string, body?: unknown) =>
  http(method, `${stack.consoleUrl}${path}`, { token, body });

async function created(method: string, path: string, body: unknown) {
  const res = await api(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** Providers, models and keys the screens show, all made through the API. */
async function seed(): Promise<void> {
  const setup = await http('POST', `${stack.consoleUrl}/api/setup/initialize`, { body: { admin: ADMIN } });
  expect(setup.status).toBe(200);
  token = setup.body.access_token;
  const openai = await created('POST', '/api/admin/providers', {
    name: 'fake-openai',
    display_name: 'Fake OpenAI',
    provider_type: 'openai',
    base_url: fakes.baseUrlFor('openai'),
    api_key: fakes.apiKeyFor('openai'),
  });
  const spare = await created('POST', '/api/admin/providers', {
    name: 'spare',
    display_name: 'Spare provider',
    provider_type: 'openai',
    base_url: 'https://spare.example.com/v1',
    api_key: 'sk-spare',
  });
  spareProviderId = spare.id;
  const route = (upstream_model: string) => ({ provider_id: openai.id, upstream_model });
  await created('POST', '/api/admin/models', { name: OK_MODEL, ...PRICES, routes: [route('test-model')] });
  await created('POST', '/api/admin/models', { name: FAILING_MODEL, ...PRICES, routes: [route('fail-400')] });
  await created('POST', '/api/admin/models', {
    name: TWO_ROUTES,
    ...PRICES,
    routes: [route('first-upstream'), route('second-upstream')],
  });
  await created('POST', '/api/admin/models', { name: UNPRICED, routes: [route('not-in-the-price-table')] });
  await created('POST', '/api/keys', { name: 'expires soon', expires_in_days: 3 });
  await created('POST', '/api/keys', { name: 'never expires' });
  gatewayKey = (await created('POST', '/api/keys', { name: 'gateway caller' })).key;
}

beforeAll(async () => {
  session = await startUiSession({ database: DATABASE, redisUrl: REDIS_URL });
  ({ stack, fakes, page, errors } = session);
  await seed();
});

afterAll(async () => {
  await session?.close();
});

// A failed step leaves a screenshot; the next one starts without a modal left open by it.
afterEach(async (context) => {
  if (context.task.result?.state === 'fail')
    await screenshot(page, `more-failed-${context.task.name.split(':')[0]}`);
});
beforeEach(() => closeOpenDialogs(page));

const nav = (label: string) => navigate(page, label);
const dialog = () => page.getByRole('dialog');
const row = (text: string) => page.getByRole('row').filter({ hasText: text });
const table = () => page.getByTestId('gateway-logs-table');

/** Endpoint, requests and cost of each row of the analytics "By endpoint" table, top to bottom. */
const endpointTableRows = () =>
  page
    .getByTestId('analytics-by-endpoint')
    .locator('tbody tr')
    .evaluateAll((rows) =>
      (rows as HTMLTableRowElement[])
        .filter((r) => r.cells.length > 3)
        .map((r) => ({
          endpoint: r.cells[0]?.textContent,
          requests: r.cells[1]?.textContent,
          cost: r.cells[3]?.textContent,
        })),
    );

/** Model and status of each gateway log row on screen (the empty-state row has neither). */
const shownRows = () =>
  table()
    .locator('tbody tr')
    .evaluateAll((rows) =>
      (rows as HTMLTableRowElement[])
        .filter((r) => r.cells.length > 3)
        .map((r) => ({ model: r.cells[1]?.textContent, status: r.cells[3]?.textContent })),
    );

/** Picks an option of a Mantine select. */
async function pickOption(input: Locator, option: string): Promise<void> {
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

interface ApiModel {
  name: string;
  kind: 'chat' | 'embedding';
  strategy: 'ordered' | 'weighted' | 'least_latency';
  input_price_per_mtok: number | null;
  is_priced: boolean;
  routes: Array<{ position: number; upstream_model: string }>;
}

async function storedModel(name: string): Promise<ApiModel | undefined> {
  const models = (await api('GET', '/api/admin/models?limit=200')).body as ApiModel[];
  return models.find((m) => m.name === name);
}

async function routeOrder(name: string): Promise<string[]> {
  const model = await storedModel(name);
  return [...(model?.routes ?? [])].sort((a, b) => a.position - b.position).map((r) => r.upstream_model);
}

describe('more screens in a real browser', () => {
  it('signs in as the admin', async () => {
    await page.goto(`${stack.consoleUrl}/login`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/analytics');
  });

  it('expiring keys: a key expiring in 3 days shows with its days left; a key without expiry does not', async () => {
    await nav('Expiring keys');
    const soon = row('expires soon');
    await soon.waitFor();
    // Columns: name, prefix, owner, expires, days left.
    expect(await soon.locator('td').nth(4).textContent()).toBe('3');
    expect(await soon.locator('td').nth(2).textContent()).toBe(ADMIN.email);
    expect(await row('never expires').count()).toBe(0);
    expect(await row('gateway caller').count()).toBe(0);
    await screenshot(page, 'more-01-expiring-keys');
    // A window shorter than the key's days left leaves it out.
    await page.getByLabel('Within days').fill('2');
    await page.getByText('No key expires in that window.').waitFor();
  });

  it('providers: the display name and base URL are edited in the UI and stored', async () => {
    await nav('Providers');
    const spare = row('Spare provider');
    await spare.getByRole('button', { name: 'Edit' }).click();
    await dialog().getByLabel('Display name').fill('Spare, renamed');
    await dialog().getByLabel('Base URL').fill('https://renamed.example.com/v2');
    await screenshot(page, 'more-02-provider-edit');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await row('Spare, renamed').getByText('https://renamed.example.com/v2').waitFor();
    const stored = await api('GET', `/api/admin/providers/${spareProviderId}`);
    expect(stored.body).toMatchObject({
      name: 'spare',
      display_name: 'Spare, renamed',
      base_url: 'https://renamed.example.com/v2',
    });
  });

  it('providers: deactivated and activated again, as the API reports', async () => {
    const spare = row('Spare, renamed');
    const active = async () => (await api('GET', `/api/admin/providers/${spareProviderId}`)).body.is_active;
    await spare.getByRole('button', { name: 'Deactivate' }).click();
    await spare.getByText('inactive', { exact: true }).waitFor();
    expect(await active()).toBe(false);
    await screenshot(page, 'more-03-provider-inactive');
    await spare.getByRole('button', { name: 'Activate' }).click();
    await spare.getByText('active', { exact: true }).waitFor();
    expect(await active()).toBe(true);
  });

  it('providers: deleted after the confirmation, gone from the API list', async () => {
    const spare = row('Spare, renamed');
    await spare.getByRole('button', { name: 'Delete' }).click();
    await dialog().getByText('Every model route to it is removed too').waitFor();
    await dialog().getByRole('button', { name: 'Delete provider' }).click();
    await spare.waitFor({ state: 'detached' });
    const listed = (await api('GET', '/api/admin/providers')).body as Array<{
      id: string;
      name: string;
    }>;
    expect(listed.map((p) => p.name)).toEqual(['fake-openai']);
    expect((await api('GET', `/api/admin/providers/${spareProviderId}`)).status).toBe(404);
  });

  it('models: two routes are reordered with the up/down buttons and saved in the new order', async () => {
    await nav('Models & routes');
    const table = page.getByTestId('models-table');
    await table.getByText('1. fake-openai → first-upstream').waitFor();
    await table
      .getByRole('row')
      .filter({ hasText: TWO_ROUTES })
      .getByRole('button', { name: 'Edit' })
      .click();
    const upstream = (index: number) => dialog().getByTestId(`route-${index}`).getByLabel('Upstream model');
    expect(await upstream(0).inputValue()).toBe('first-upstream');
    expect(await dialog().getByTestId('route-0').getByLabel('Move route up').isDisabled()).toBe(true);
    await dialog().getByTestId('route-0').getByLabel('Move route down').click();
    expect(await upstream(0).inputValue()).toBe('second-upstream');
    expect(await upstream(1).inputValue()).toBe('first-upstream');
    // And back up and down again: the buttons move the route they sit on.
    await dialog().getByTestId('route-1').getByLabel('Move route up').click();
    expect(await upstream(0).inputValue()).toBe('first-upstream');
    await dialog().getByTestId('route-1').getByLabel('Move route up').click();
    expect(await upstream(0).inputValue()).toBe('second-upstream');
    await screenshot(page, 'more-04-routes-reordered');
    await dialog().getByRole('button', { name: 'Save model' }).click();
    await table.getByText('1. fake-openai → second-upstream').waitFor();
    await table.getByText('2. fake-openai → first-upstream').waitFor();
    expect(await routeOrder(TWO_ROUTES)).toEqual(['second-upstream', 'first-upstream']);
  });

  it('models: a model without prices whose upstream model is not in the price table is flagged unpriced', async () => {
    const models = (await api('GET', '/api/admin/models?limit=200')).body as ApiModel[];
    expect(models.filter((m) => !m.is_priced).map((m) => m.name)).toEqual([UNPRICED]);
    const alert = page.getByTestId('unpriced-alert');
    expect(await alert.textContent()).toContain('1 unpriced model');
    expect(await alert.textContent()).toContain(UNPRICED);
    const table = page.getByTestId('models-table');
    await table
      .getByRole('row')
      .filter({ hasText: UNPRICED })
      .getByText('unpriced', { exact: true })
      .waitFor();
    for (const priced of [OK_MODEL, FAILING_MODEL, TWO_ROUTES])
      expect(await table.getByRole('row').filter({ hasText: priced }).getByText('own prices').count()).toBe(
        1,
      );
    await screenshot(page, 'more-05-models-unpriced');
  });

  it('models: one created as Embedding shows its kind and is stored so; edited back to Chat, likewise', async () => {
    const table = page.getByTestId('models-table');
    const vectors = table.getByRole('row').filter({ hasText: VECTORS });
    // The seeded models are chat models: the default kind.
    await table.getByRole('row').filter({ hasText: OK_MODEL }).getByText('Chat', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add model' }).click();
    const kind = dialog().getByRole('textbox', { name: 'Kind' });
    expect(await kind.inputValue()).toBe('Chat');
    await dialog().getByText('Embedding models serve POST /v1/embeddings').waitFor();
    await dialog().getByLabel('Model name').fill(VECTORS);
    await kind.click();
    await page.getByRole('option', { name: 'Embedding' }).click();
    expect(await kind.inputValue()).toBe('Embedding');
    await dialog().getByLabel('Input price (USD / 1M tokens)', { exact: true }).fill('0.02');
    await dialog().getByRole('button', { name: 'Add route' }).click();
    await dialog().getByRole('textbox', { name: 'Provider' }).click();
    await page.getByRole('option', { name: 'Fake OpenAI' }).click();
    await dialog().getByLabel('Upstream model').fill('text-embedding-3-small');
    await screenshot(page, 'more-06-model-embedding-editor');
    await dialog().getByRole('button', { name: 'Add model' }).click();
    await vectors.getByText('Embedding', { exact: true }).waitFor();
    await vectors.getByText('1. fake-openai → text-embedding-3-small').waitFor();
    expect(await storedModel(VECTORS)).toMatchObject({ kind: 'embedding', input_price_per_mtok: 0.02 });
    await screenshot(page, 'more-07-models-embedding');

    // The editor opens on the stored kind; switched back to Chat, the list and the API follow.
    await vectors.getByRole('button', { name: 'Edit' }).click();
    expect(await kind.inputValue()).toBe('Embedding');
    await kind.click();
    await page.getByRole('option', { name: 'Chat' }).click();
    await dialog().getByRole('button', { name: 'Save model' }).click();
    await dialog().waitFor({ state: 'detached' });
    await vectors.getByText('Chat', { exact: true }).waitFor();
    expect(await vectors.getByText('Embedding', { exact: true }).count()).toBe(0);
    expect(await storedModel(VECTORS)).toMatchObject({ kind: 'chat', input_price_per_mtok: 0.02 });
    expect(await routeOrder(VECTORS)).toEqual(['text-embedding-3-small']);
  });

  it('models: one created with the Weighted strategy shows it and is stored so; edited to Least latency, likewise', async () => {
    const table = page.getByTestId('models-table');
    const weighted = table.getByRole('row').filter({ hasText: WEIGHTED });
    // Ordered, the default, shows no strategy badge.
    expect(await storedModel(OK_MODEL)).toMatchObject({ strategy: 'ordered' });
    expect(
      await table.getByRole('row').filter({ hasText: OK_MODEL }).getByTestId('model-strategy').count(),
    ).toBe(0);
    await page.getByRole('button', { name: 'Add model' }).click();
    const strategy = dialog().getByRole('textbox', { name: 'Routing strategy' });
    expect(await strategy.inputValue()).toBe('Ordered — by position');
    await dialog().getByText('The other routes stay fallbacks, in order.').waitFor();
    await dialog().getByLabel('Model name').fill(WEIGHTED);
    await strategy.click();
    await page.getByRole('option', { name: 'Weighted — first route drawn by weight' }).click();
    await dialog().getByLabel('Input price (USD / 1M tokens)', { exact: true }).fill('1');
    await dialog().getByLabel('Output price (USD / 1M tokens)', { exact: true }).fill('2');
    await dialog().getByRole('button', { name: 'Add route' }).click();
    await dialog().getByRole('textbox', { name: 'Provider' }).click();
    await page.getByRole('option', { name: 'Fake OpenAI' }).click();
    await dialog().getByLabel('Upstream model').fill('test-model');
    await dialog().getByRole('button', { name: 'Add model' }).click();
    await dialog().waitFor({ state: 'detached' });
    await weighted.getByTestId('model-strategy').getByText('Weighted', { exact: true }).waitFor();
    expect(await storedModel(WEIGHTED)).toMatchObject({ strategy: 'weighted', kind: 'chat' });
    await screenshot(page, 'more-07b-models-weighted');

    // The editor opens on the stored strategy; switched to Least latency, the list and the API follow.
    await weighted.getByRole('button', { name: 'Edit' }).click();
    expect(await strategy.inputValue()).toBe('Weighted — first route drawn by weight');
    await strategy.click();
    await page.getByRole('option', { name: 'Least latency — the fastest route seen first' }).click();
    await dialog().getByRole('button', { name: 'Save model' }).click();
    await dialog().waitFor({ state: 'detached' });
    await weighted.getByTestId('model-strategy').getByText('Least latency', { exact: true }).waitFor();
    expect(await storedModel(WEIGHTED)).toMatchObject({ strategy: 'least_latency', kind: 'chat' });
    expect(await routeOrder(WEIGHTED)).toEqual(['test-model']);
  });

  it('models: an output cap, cache breakpoints off and cache write prices are set in the editor, shown in the list and stored', async () => {
    await nav('Models & routes');
    const table = page.getByTestId('models-table');
    const agent = table.getByRole('row').filter({ hasText: AGENT });
    // A model made before: no cap of its own, breakpoints on (the default).
    const ok = table.getByRole('row').filter({ hasText: OK_MODEL });
    expect(await ok.getByTestId('model-max-output').textContent()).toBe("upstream's limit");
    expect(await ok.getByTestId('model-cache-breakpoints').textContent()).toBe('cache breakpoints');
    await page.getByRole('button', { name: 'Add model' }).click();
    const breakpoints = dialog().getByRole('switch', { name: 'Place prompt-cache breakpoints' });
    expect(await breakpoints.isChecked()).toBe(true);
    await dialog().getByLabel('Model name').fill(AGENT);
    await dialog().getByLabel('Input price (USD / 1M tokens)', { exact: true }).fill('3');
    await dialog().getByLabel('Output price (USD / 1M tokens)', { exact: true }).fill('15');
    await dialog().getByLabel('Cache write price (USD / 1M tokens)', { exact: true }).fill('3.75');
    await dialog().getByLabel('1-hour cache write price (USD / 1M tokens)', { exact: true }).fill('6');
    await dialog().getByLabel('Max output tokens', { exact: true }).fill('64000');
    await breakpoints.uncheck({ force: true });
    await dialog().getByRole('button', { name: 'Add route' }).click();
    await dialog().getByRole('textbox', { name: 'Provider' }).click();
    await page.getByRole('option', { name: 'Fake OpenAI' }).click();
    await dialog().getByLabel('Upstream model').fill('test-model');
    await screenshot(page, 'more-07c-model-agent-editor');
    await dialog().getByRole('button', { name: 'Add model' }).click();
    await dialog().waitFor({ state: 'detached' });
    await agent.getByTestId('model-max-output').getByText('64,000 tokens').waitFor();
    expect(await agent.getByTestId('model-cache-breakpoints').textContent()).toBe('no cache breakpoints');
    expect(await agent.getByTestId('model-cache-write-price').textContent()).toBe(
      'cache write $3.75 · 1 h $6',
    );
    expect(await storedModel(AGENT)).toMatchObject({
      max_output_tokens: 64_000,
      cache_breakpoints: false,
      cache_write_price_per_mtok: 3.75,
      cache_write_1h_price_per_mtok: 6,
    });
    await screenshot(page, 'more-07d-models-agent');

    // The editor opens on the stored values; cleared and switched back on, the list and the API follow.
    await agent.getByRole('button', { name: 'Edit' }).click();
    const cap = dialog().getByLabel('Max output tokens', { exact: true });
    expect(await cap.inputValue()).toBe('64000');
    expect(await breakpoints.isChecked()).toBe(false);
    await cap.fill('');
    await dialog().getByLabel('1-hour cache write price (USD / 1M tokens)', { exact: true }).fill('');
    await breakpoints.check({ force: true });
    await dialog().getByRole('button', { name: 'Save model' }).click();
    await dialog().waitFor({ state: 'detached' });
    await agent.getByTestId('model-max-output').getByText("upstream's limit").waitFor();
    expect(await agent.getByTestId('model-cache-breakpoints').textContent()).toBe('cache breakpoints');
    expect(await agent.getByTestId('model-cache-write-price').textContent()).toBe('cache write $3.75');
    expect(await storedModel(AGENT)).toMatchObject({
      max_output_tokens: null,
      cache_breakpoints: true,
      cache_write_price_per_mtok: 3.75,
      cache_write_1h_price_per_mtok: null,
    });
  });

  it('price table: the seeded Anthropic write prices show; an entry added and edited in the UI is stored with its write prices', async () => {
    // The price table is reached from the models page.
    await nav('Models & routes');
    await page.getByRole('link', { name: 'Price table', exact: true }).click();
    await page.waitForURL('**/models/prices');
    const prices = page.getByTestId('prices-table');
    const entry = (model: string) =>
      prices.getByRole('row').filter({ has: page.getByText(model, { exact: true }) });
    const cells = (model: string) =>
      entry(model)
        .locator('td')
        .evaluateAll((tds) => tds.slice(0, 7).map((td) => td.textContent));
    await entry('claude-sonnet-4').waitFor();
    expect(await cells('claude-sonnet-4')).toEqual([
      'claude-sonnet-4',
      'anthropic',
      '$3',
      '$15',
      '$0.3',
      '$3.75',
      '$6',
    ]);
    expect((await cells('gpt-4o')).slice(5)).toEqual(['—', '—']);

    await page.getByRole('button', { name: 'Add price' }).click();
    await dialog().getByLabel('Upstream model').fill(PRICED_UPSTREAM);
    await dialog().getByLabel('Vendor').fill('acme');
    await dialog().getByLabel('Input price (USD / 1M tokens)').fill('2');
    await dialog().getByLabel('Output price (USD / 1M tokens)').fill('8');
    await dialog().getByLabel('Cache write price', { exact: true }).fill('2.5');
    await dialog().getByLabel('1-hour cache write price', { exact: true }).fill('4');
    await screenshot(page, 'more-07e-price-editor');
    await dialog().getByRole('button', { name: 'Save price' }).click();
    await dialog().waitFor({ state: 'detached' });
    await entry(PRICED_UPSTREAM).waitFor();
    expect(await cells(PRICED_UPSTREAM)).toEqual([PRICED_UPSTREAM, 'acme', '$2', '$8', '—', '$2.5', '$4']);
    type Price = { model: string; cache_write_price_per_mtok: number | null };
    const stored = async () =>
      ((await api('GET', '/api/admin/model-prices?limit=200')).body as Price[]).find(
        (p) => p.model === PRICED_UPSTREAM,
      );
    expect(await stored()).toMatchObject({
      cache_write_price_per_mtok: 2.5,
      cache_write_1h_price_per_mtok: 4,
    });

    await entry(PRICED_UPSTREAM).getByRole('button', { name: 'Edit' }).click();
    expect(await dialog().getByLabel('Cache write price', { exact: true }).inputValue()).toBe('2.5');
    await dialog().getByLabel('1-hour cache write price', { exact: true }).fill('');
    await dialog().getByRole('button', { name: 'Save price' }).click();
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(async () => (await cells(PRICED_UPSTREAM))[6]).toBe('—');
    expect(await stored()).toMatchObject({
      cache_write_price_per_mtok: 2.5,
      cache_write_1h_price_per_mtok: null,
    });
    await screenshot(page, 'more-07f-price-table');
  });

  it('price table: a page shows 50 entries with the total the API counts; the pager moves to the rest', async () => {
    await nav('Models & routes');
    await page.getByRole('link', { name: 'Price table', exact: true }).click();
    const rest = await api('GET', '/api/admin/model-prices?offset=50');
    const total = Number(rest.headers.get('x-total-count'));
    const entries = rest.body as Array<{ model: string }>;
    expect(total).toBeGreaterThan(50);
    const last = entries.at(-1)?.model ?? '';
    const prices = page.getByTestId('prices-table');
    const summary = page.getByTestId('pager-summary');
    await expect.poll(() => summary.textContent()).toBe(`1–50 of ${total}`);
    expect(await prices.getByRole('row').count()).toBe(51);
    expect(await prices.getByText(last, { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: '2', exact: true }).click();
    await prices.getByText(last, { exact: true }).waitFor();
    expect(await summary.textContent()).toBe(`51–${total} of ${total}`);
    expect(await prices.getByRole('row').count()).toBe(total - 50 + 1);
  });

  it('gateway logs: after an answered and a failed SDK call, filters by status and by model show the right rows', async () => {
    const client = new OpenAI({ apiKey: gatewayKey, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: OK_MODEL,
      messages: [{ role: 'user', content: 'logged' }],
    });
    expect(answer.choices[0]?.message.content).toBe('echo: logged');
    const failed = await client.chat.completions
      .create({ model: FAILING_MODEL, messages: [{ role: 'user', content: 'fails' }] })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    // The request log is written in batches: wait until both requests are in.
    type Entry = { model: string; status_code: number };
    const logged = async () => (await api('GET', '/api/gateway/logs')).body.entries as Entry[];
    await expect.poll(async () => (await logged()).length, { timeout: 30_000, interval: 500 }).toBe(2);
    const entries = await logged();
    const failedStatus = entries.find((e) => e.model === FAILING_MODEL)?.status_code ?? 0;
    expect(failedStatus).toBeGreaterThanOrEqual(400);
    expect(entries.find((e) => e.model === OK_MODEL)?.status_code).toBe(200);

    await nav('Gateway logs');
    await expect.poll(async () => (await shownRows()).length).toBe(2);
    // The status filter is a choice of classes and codes: the failure's class here.
    const status = page.getByRole('textbox', { name: 'Status', exact: true });
    const failedClass = failedStatus < 500 ? '4xx — client errors' : '5xx — server errors';
    await pickOption(status, failedClass);
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(shownRows).toEqual([{ model: FAILING_MODEL, status: String(failedStatus) }]);
    await screenshot(page, 'more-08-gateway-logs-by-status');
    await pickOption(status, '200 OK');
    // The model filter suggests names: close its list before applying.
    await page.getByRole('textbox', { name: 'Model', exact: true }).fill(OK_MODEL);
    await page.getByRole('textbox', { name: 'Model', exact: true }).press('Escape');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(shownRows).toEqual([{ model: OK_MODEL, status: '200' }]);
    // Both filters at once match nothing.
    await pickOption(status, failedClass);
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('No requests match.').waitFor();
  });

  it("gateway logs: a status outside the API's range (from a link) shows its 422 at the Status field", async () => {
    errors.expectFailure('/api/gateway/logs', 422);
    await page.goto(`${stack.consoleUrl}/logs/gateway?status_code=42`);
    const status = page.getByRole('textbox', { name: 'Status', exact: true });
    expect(await fieldError(status)).toBe(
      'must be a status code (100..599) or a class (1xx, 2xx, 3xx, 4xx, 5xx)',
    );
    await screenshot(page, 'more-09-gateway-logs-422');
    // Corrected, the error goes and the rows come back.
    await pickOption(status, '200 OK');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await table().getByText(OK_MODEL).waitFor();
    expect(await page.locator(`[id="${await status.getAttribute('id')}-error"]`).count()).toBe(0);
  });

  it("analytics: after chat and embeddings calls, the By endpoint table shows both with the API's counts, most requests first", async () => {
    const providers = (await api('GET', '/api/admin/providers')).body as Array<{
      id: string;
      name: string;
    }>;
    const openaiId = providers.find((p) => p.name === 'fake-openai')?.id;
    await created('POST', '/api/admin/models', {
      name: EMBEDDER,
      kind: 'embedding',
      input_price_per_mtok: 0.02,
      routes: [{ provider_id: openaiId, upstream_model: 'text-embedding-3-small' }],
    });
    const client = new OpenAI({ apiKey: gatewayKey, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
    const vectors = await client.embeddings.create({ model: EMBEDDER, input: 'hello world' });
    expect(vectors.data[0]?.embedding.length).toBeGreaterThan(0);
    const answer = await client.chat.completions.create({
      model: OK_MODEL,
      messages: [{ role: 'user', content: 'by endpoint' }],
    });
    expect(answer.choices[0]?.message.content).toBe('echo: by endpoint');

    // The request log is written in batches: wait until the usage stats count the embeddings call
    // and every chat call the gateway logs list (the two of the gateway-logs step and this one).
    type Entry = { endpoint: string };
    type Stats = { endpoints: Record<string, { requests: number }> };
    const chatLogged = async () =>
      ((await api('GET', '/api/gateway/logs')).body.entries as Entry[]).filter(
        (e) => e.endpoint === '/v1/chat/completions',
      ).length;
    await expect.poll(chatLogged, { timeout: 30_000, interval: 500 }).toBe(3);
    const stats = async () => (await api('GET', '/api/analytics/usage/stats')).body as Stats;
    await expect
      .poll(async () => (await stats()).endpoints, { timeout: 30_000, interval: 500 })
      .toMatchObject({ '/v1/embeddings': { requests: 1 }, '/v1/chat/completions': { requests: 3 } });
    const usage = await stats();
    const costs = (await api('GET', '/api/analytics/costs/stats')).body as {
      by_endpoint: Record<string, number>;
    };
    expect(costs.by_endpoint['/v1/embeddings']).toBeGreaterThanOrEqual(0);
    expect(costs.by_endpoint['/v1/chat/completions']).toBeGreaterThan(0);
    const labels: Record<string, string> = {
      '/v1/chat/completions': 'Chat completions — /v1/chat/completions',
      '/v1/embeddings': 'Embeddings — /v1/embeddings',
    };
    const expected = Object.entries(usage.endpoints)
      .sort(([a, x], [b, y]) => y.requests - x.requests || a.localeCompare(b))
      .map(([endpoint, e]) => ({
        endpoint: labels[endpoint] ?? endpoint,
        requests: String(e.requests),
        cost: expect.stringMatching(costs.by_endpoint[endpoint] === undefined ? /^—$/ : /^\$\d+\.\d+$/),
      }));
    expect(expected.map((r) => r.endpoint)).toEqual([
      labels['/v1/chat/completions'],
      labels['/v1/embeddings'],
    ]);

    await nav('Analytics');
    await page.reload();
    await expect.poll(endpointTableRows, { timeout: 10_000 }).toEqual(expected);
    await screenshot(page, 'more-10-analytics-by-endpoint');
  });

  it("gateway logs and analytics: a refused SDK call shows its client and error type; the By client and Errors tables show the API's rows", async () => {
    const client = new OpenAI({ apiKey: gatewayKey, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
    const refused = await client.chat.completions
      .create({ model: NO_SUCH_MODEL, messages: [{ role: 'user', content: 'refused' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    // Refusals are logged like any request, with the client recognised from the SDK's User-Agent.
    type Entry = {
      model: string;
      status_code: number;
      error_type: string | null;
      client_name: string | null;
      client_version: string | null;
    };
    const refusal = async () =>
      ((await api('GET', '/api/gateway/logs')).body.entries as Entry[]).find(
        (e) => e.model === NO_SUCH_MODEL,
      );
    await expect.poll(refusal, { timeout: 30_000, interval: 500 }).toBeDefined();
    const row = (await refusal()) as Entry;
    expect(row).toMatchObject({ status_code: 404, error_type: 'not_found_error', client_name: 'openai-sdk' });
    expect(row.client_version).toMatch(/^\d+\.\d+/);

    await nav('Gateway logs');
    await page.getByLabel('Client', { exact: true }).fill('openai-sdk');
    await page.getByLabel('Error type', { exact: true }).fill('not_found_error');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(shownRows).toEqual([{ model: NO_SUCH_MODEL, status: '404' }]);
    expect(await table().getByTestId('log-client').textContent()).toBe(`openai-sdk ${row.client_version}`);
    await screenshot(page, 'more-10b-gateway-logs-by-client');
    // A client that never called matches nothing.
    await page.getByLabel('Client', { exact: true }).fill('codex');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('No requests match.').waitFor();
    await page.getByRole('button', { name: 'Reset', exact: true }).click();

    type ClientRow = {
      client_name: string | null;
      client_version: string | null;
      requests: number;
      errors: number;
    };
    type ErrorRow = {
      error_type: string | null;
      client_name: string | null;
      status_code: number;
      requests: number;
    };
    const clients = (await api('GET', '/api/analytics/clients')).body.data as ClientRow[];
    const failures = (await api('GET', '/api/analytics/errors')).body.data as ErrorRow[];
    expect(clients.find((c) => c.client_name === 'openai-sdk')?.errors).toBeGreaterThanOrEqual(1);
    expect(failures).toContainEqual({
      error_type: 'not_found_error',
      client_name: 'openai-sdk',
      status_code: 404,
      requests: 1,
    });
    const label = (name: string | null, version?: string | null) =>
      name === null ? 'no user agent' : version ? `${name} ${version}` : name;
    await nav('Analytics');
    await page.reload();
    const rowsOf = (testId: string, columns: number) =>
      page
        .getByTestId(testId)
        .locator('tbody tr')
        .evaluateAll(
          (trs, n) =>
            (trs as HTMLTableRowElement[])
              .filter((r) => r.cells.length > 1)
              .map((r) => [...r.cells].slice(0, n).map((c) => c.textContent)),
          columns,
        );
    await expect
      .poll(() => rowsOf('analytics-by-client', 3), { timeout: 10_000 })
      .toEqual(
        clients.map((c) => [label(c.client_name, c.client_version), String(c.requests), String(c.errors)]),
      );
    await expect
      .poll(() => rowsOf('analytics-errors', 4), { timeout: 10_000 })
      .toEqual(
        failures.map((f) => [
          f.error_type ?? 'none logged',
          label(f.client_name),
          String(f.status_code),
          String(f.requests),
        ]),
      );
    await page.getByTestId('stat-cache-read').waitFor();
    await screenshot(page, 'more-10c-analytics-by-client');
  });

  it('models: a route to a closed port is benched after 3 failed requests; its badge shows, the healthy route has none', async () => {
    const providers = (await api('GET', '/api/admin/providers')).body as Array<{
      id: string;
      name: string;
    }>;
    const openaiId = providers.find((p) => p.name === 'fake-openai')?.id;
    // Nothing listens on port 9: every call to this provider fails to connect.
    const dead = await created('POST', '/api/admin/providers', {
      name: 'dead-port',
      display_name: 'Dead port',
      provider_type: 'openai',
      base_url: 'http://127.0.0.1:9/v1',
      api_key: 'sk-dead',
    });
    const model = await created('POST', '/api/admin/models', {
      name: BENCHED,
      ...PRICES,
      routes: [
        { provider_id: dead.id, upstream_model: 'test-model' },
        { provider_id: openaiId, upstream_model: 'test-model' },
      ],
    });
    const [deadRoute, liveRoute] = [...(model.routes as Array<{ id: string; position: number }>)].sort(
      (a, b) => a.position - b.position,
    );
    // The gateway's default: 3 failures within 30 s bench a route for 10 s. Each request is
    // answered by the second route; no response cache, so each one tries the first route.
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${stack.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${gatewayKey}`,
          'content-type': 'application/json',
          'cache-control': 'no-store',
        },
        body: JSON.stringify({ model: BENCHED, messages: [{ role: 'user', content: `bench ${i}` }] }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await res.json()).choices[0]?.message.content).toBe(`echo: bench ${i}`);
    }
    type Health = { route_id: string; model: string; state: string; benched_until: string | null };
    const health = async () => (await api('GET', '/api/admin/models/route-health')).body as Health[];
    await expect
      .poll(async () => (await health()).find((h) => h.route_id === deadRoute?.id)?.state, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe('benched');
    const entries = await health();
    expect(entries.map((h) => h.route_id)).not.toContain(liveRoute?.id);
    const benchedUntil = entries.find((h) => h.route_id === deadRoute?.id)?.benched_until ?? '';
    expect(Date.parse(benchedUntil)).toBeGreaterThan(Date.now());

    // The bench lasts 10 s: the page, loaded afresh, shows it within that.
    await nav('Models & routes');
    await page.reload();
    const table = page.getByTestId('models-table');
    const deadLine = table.getByTestId(`model-route-${deadRoute?.id}`);
    const liveLine = table.getByTestId(`model-route-${liveRoute?.id}`);
    await deadLine.getByText('1. dead-port → test-model').waitFor();
    await liveLine.getByText('2. fake-openai → test-model').waitFor();
    const badge = deadLine.getByTestId('route-health-badge');
    await badge.waitFor({ timeout: 5_000 });
    // HH:MM:SS of the bench's end, in the browser's time zone.
    const clock = await page.evaluate(
      (iso) =>
        new Intl.DateTimeFormat(undefined, {
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          hourCycle: 'h23',
        }).format(new Date(iso)),
      benchedUntil,
    );
    expect(clock).toMatch(/^\d\d:\d\d:\d\d$/);
    expect(await badge.textContent()).toBe(`Benched until ${clock}`);
    expect(await badge.getAttribute('data-state')).toBe('benched');
    expect(await liveLine.getByTestId('route-health-badge').count()).toBe(0);
    // The only route in the table with a badge; the page says what benching means.
    expect(await table.getByTestId('route-health-badge').count()).toBe(1);
    expect(await page.getByTestId('route-health-note').textContent()).toBe(
      'Benched routes are skipped without an upstream call until the cool-down ends; then one request probes the route.',
    );
    await screenshot(page, 'more-11-models-route-benched');
    await badge.hover();
    await page
      .getByRole('tooltip')
      .getByText('Benched routes are skipped without an upstream call')
      .waitFor();
    // The editor's route rows carry the same badges.
    await table.getByRole('row').filter({ hasText: BENCHED }).getByRole('button', { name: 'Edit' }).click();
    const editorBadge = (index: number) =>
      dialog().getByTestId(`route-${index}`).getByTestId('route-health-badge');
    await editorBadge(0).waitFor();
    expect(await editorBadge(0).textContent()).toBe(`Benched until ${clock}`);
    expect(await editorBadge(1).count()).toBe(0);
    await closeOpenDialogs(page);
  });

  it('logged no console errors and no uncaught exceptions in the browser', () => {
    expect(errors.list()).toEqual([]);
  });
});
