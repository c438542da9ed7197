// The web UI's first journey, in a real browser (Debian's chromium through playwright-core): a new
// admin sets the system up (after which the wizard is gone), routes a model to a provider, issues a
// key (its RPM listed with its limits), watches its usage and cost, rotates and revokes it, all in
// the web UI the console serves, on a stack of its own.
import OpenAI from 'openai';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstreams } from '../fakes/server';
import { type BrowserErrors, screenshot } from '../helpers/browser';
import { navigate, startUiSession, type UiSession } from '../helpers/ui-session';
import type { StartedStack } from '../setup/e2e-global';

// Own database and Redis db: nothing shared with the e2e project's stack.
const DATABASE = process.env.TEST_UI_DATABASE ?? 'sluice_ui_e2e';
const REDIS_URL = process.env.TEST_UI_REDIS_URL ?? 'redis://127.0.0.1:6379/3';
const ADMIN = { email: 'admin@ui.example.com', name: 'UI Admin', password: 'correct horse battery' };
const MODEL = 'ui-model';

let session: UiSession;
let stack: StartedStack;
let fakes: FakeUpstreams;
let page: Page;
let errors: BrowserErrors;
let secret = '';
let rotatedSecret = '';

beforeAll(async () => {
  session = await startUiSession({ database: DATABASE, redisUrl: REDIS_URL, clipboard: true });
  ({ stack, fakes, page, errors } = session);
});
afterAll(() => session?.close());

const nav = (label: string) => navigate(page, label);
const dialog = () => page.getByRole('dialog');

/** The API's message shows in the field's own wrapper (label, input, error), not elsewhere. */
async function expectFieldError(input: Locator, message: string): Promise<void> {
  await page.getByText(message, { exact: true }).waitFor();
  const wrapper = input.locator('xpath=ancestor::div[contains(@class, "mantine-InputWrapper-root")][1]');
  expect(await wrapper.locator('.mantine-InputWrapper-error').textContent()).toBe(message);
}

function gateway(key: string): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${stack.gatewayUrl}/v1`, maxRetries: 0 });
}

describe('the web UI in a real browser', () => {
  it('serves the app at / and the setup wizard on first run; a weak password shows the API error at the field', async () => {
    await page.goto(stack.consoleUrl);
    await page.waitForURL('**/setup');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Display name').fill(ADMIN.name);
    await page.getByLabel('Password').fill('short');
    await screenshot(page, '01-setup-wizard');
    await page.getByRole('button', { name: 'Next' }).click();
    errors.expectFailure('/api/setup/initialize', 422);
    await page.getByRole('button', { name: 'Finish setup' }).click();
    // The wizard goes back to the step with the field the API refused, message under it.
    await expectFieldError(page.getByLabel('Password'), 'must be at least 8 characters');
    await screenshot(page, '02-setup-422');
  });

  it('finishes setup and lands signed in, with the admin navigation', async () => {
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Finish setup' }).click();
    await page.waitForURL('**/analytics');
    await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(ADMIN.email);
    for (const label of ['Providers', 'Models & routes', 'Settings', 'Users'])
      expect(await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).count()).toBe(
        1,
      );
  });

  it('once set up, the wizard is gone: /setup and a fresh visit lead to the app or the sign-in page', async () => {
    // What a restarted stack serves: GET /api/setup/status says initialized, so nothing offers setup again.
    const status = await (await fetch(`${stack.consoleUrl}/api/setup/status`)).json();
    expect(status).toMatchObject({ initialized: true, needs_setup: false });
    await page.goto(`${stack.consoleUrl}/setup`);
    await page.waitForURL('**/analytics');
    const fresh = await session.browser.newContext();
    try {
      const visitor = await fresh.newPage();
      await visitor.goto(`${stack.consoleUrl}/setup`);
      await visitor.waitForURL('**/login');
      await visitor.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await visitor.getByRole('button', { name: 'Finish setup' }).count()).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('creates a provider pointing at the fake OpenAI upstream', async () => {
    await nav('Providers');
    await page.getByRole('button', { name: 'Add provider' }).click();
    await dialog().getByLabel('Name', { exact: true }).fill('fake-openai');
    await dialog().getByLabel('Display name').fill('Fake OpenAI');
    await dialog().getByLabel('Base URL').fill(fakes.baseUrlFor('openai'));
    await dialog().getByLabel('API key').fill(fakes.apiKeyFor('openai'));
    await dialog().getByRole('button', { name: 'Add provider' }).click();
    await page.getByRole('cell', { name: /Fake OpenAI/ }).waitFor();
    await screenshot(page, '03-providers');
  });

  it('creates a priced model with one route to that provider', async () => {
    await nav('Models & routes');
    await page.getByRole('button', { name: 'Add model' }).click();
    await dialog().getByLabel('Model name').fill(MODEL);
    await dialog().getByLabel('Input price (USD / 1M tokens)', { exact: true }).fill('1.5');
    await dialog().getByLabel('Output price (USD / 1M tokens)', { exact: true }).fill('6');
    await dialog().getByRole('button', { name: 'Add route' }).click();
    await dialog().getByRole('textbox', { name: 'Provider' }).click();
    await page.getByRole('option', { name: 'Fake OpenAI' }).click();
    await dialog().getByLabel('Upstream model').fill('test-model');
    await screenshot(page, '04-model-editor');
    await dialog().getByRole('button', { name: 'Add model' }).click();
    await page.getByTestId('models-table').getByText('1. fake-openai → test-model').waitFor();
    await screenshot(page, '05-models');
  });

  it('sets where clients reach the gateway (gateway_base_url), which the key dialog will show', async () => {
    await nav('Settings');
    await page.getByRole('tab', { name: 'System', exact: true }).click();
    // Labelled "Gateway base URL gateway_base_url": the human name, then the key.
    await page.getByLabel('gateway_base_url').fill(stack.gatewayUrl);
    await page.getByRole('button', { name: 'Save System' }).click();
    await page.getByText('Saved: gateway_base_url').waitFor();
  });

  it('creates a key: an invalid RPM shows the API error at the field, then the secret is shown once and copied', async () => {
    await nav('API keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    await dialog().getByLabel('Name').fill('journey key');
    const rpm = dialog().getByLabel('Requests per minute');
    await rpm.fill('0');
    errors.expectFailure('/api/keys', 422);
    await dialog().getByRole('button', { name: 'Create key' }).click();
    await expectFieldError(rpm, 'Too small: expected number to be >=1');
    await rpm.fill('120');
    await dialog().getByRole('button', { name: 'Create key' }).click();
    secret = (await page.getByTestId('secret-value').textContent()) ?? '';
    expect(secret).toMatch(/^\S{20,}$/);
    expect(await dialog().getByTestId('gateway-base-url').textContent()).toBe(`${stack.gatewayUrl}/v1`);
    await dialog().getByRole('button', { name: 'Copy' }).click();
    await dialog().getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await screenshot(page, '06-key-secret');
    await dialog().getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('keys-table').getByText('journey key').waitFor();
    expect(await page.getByTestId('keys-table').getByText(secret).count()).toBe(0); // never shown again
    // Its RPM is listed with its limits, worded as the limits page words a rule.
    const limits = page.getByTestId('keys-table').getByRole('row').filter({ hasText: 'journey key' });
    expect(await limits.getByTestId('key-rpm-limit').textContent()).toBe('120 requests / 1m');
  });

  it('calls the gateway with that key through the official openai SDK', async () => {
    const answer = await gateway(secret).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'hello from the browser test' }],
    });
    expect(answer.choices[0]?.message.content).toBe('echo: hello from the browser test');
  });

  it('shows the request in analytics (requests, cost) and in the gateway logs with a detail drawer', async () => {
    await nav('Analytics');
    // The request log is written in batches: reload until the request is counted.
    await expect
      .poll(
        async () => {
          await page.reload();
          const stat = page.getByTestId('stat-requests');
          await page.waitForFunction((el) => el?.textContent !== '—', await stat.elementHandle());
          return stat.textContent();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe('1');
    expect(await page.getByTestId('stat-cost').textContent()).toMatch(/^\$0\.0\d+$/);
    await page.getByTestId('analytics-by-model').getByText(MODEL).waitFor();
    await screenshot(page, '07-analytics');
    await nav('Gateway logs');
    const row = page.getByTestId('gateway-logs-table').getByRole('row').filter({ hasText: MODEL });
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    await row.first().click();
    const drawer = page.getByTestId('detail-table');
    await drawer.getByText('test-model').waitFor();
    await drawer.getByText('fake-openai').waitFor();
    await screenshot(page, '08-gateway-log-drawer');
    await page.keyboard.press('Escape');
  });

  it('rotates the key: the new secret is shown once with the grace end, and works', async () => {
    await nav('API keys');
    await page.getByRole('button', { name: 'Rotate' }).click();
    await dialog().getByRole('button', { name: 'Rotate key' }).click();
    rotatedSecret = (await page.getByTestId('secret-value').textContent()) ?? '';
    expect(rotatedSecret).not.toBe(secret);
    expect(await page.getByTestId('grace-end').textContent()).toMatch(/\d/);
    await screenshot(page, '09-key-rotated');
    await dialog().getByRole('button', { name: 'Done' }).click();
    const answer = await gateway(rotatedSecret).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'rotated' }],
    });
    expect(answer.choices[0]?.message.content).toBe('echo: rotated');
  });

  it('revokes the key after a confirmation; the gateway then refuses it with 401', async () => {
    await page.getByRole('button', { name: 'Revoke' }).click();
    await dialog().getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No keys yet.').waitFor();
    await screenshot(page, '10-key-revoked');
    for (const key of [rotatedSecret, secret]) {
      const refused = await gateway(key)
        .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(401);
    }
  });

  it('refreshes an expired access token on a 401 and keeps the page', async () => {
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('sluice.session') ?? '{}');
      localStorage.setItem(
        'sluice.session',
        JSON.stringify({ ...session, access_token: 'expired.token.value' }),
      );
    });
    errors.expectFailure('/api/', 401);
    await page.reload();
    await page.getByTestId('keys-table').waitFor();
    expect(page.url()).toMatch(/\/keys$/);
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('sluice.session') ?? '{}').access_token,
    );
    expect(token).not.toBe('expired.token.value');
  });

  it('signs out to the sign-in page and signs in again, back on the same page', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await screenshot(page, '11-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/keys'); // back to the page the session ended on
  });

  it('shows a non-admin only their own sections', async () => {
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('sluice.session') ?? '{}').access_token,
    );
    const user = {
      email: 'user@ui.example.com',
      display_name: 'Plain User',
      password: 'another long password',
    };
    const created = await fetch(`${stack.consoleUrl}/api/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(user),
    });
    expect(created.status).toBe(201);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('user-email').getByText(user.email).waitFor();
    const links = await page.getByRole('navigation').getByRole('link').allTextContents();
    expect(links).toEqual(expect.arrayContaining(['Analytics', 'API keys', 'MCP tools', 'Gateway logs']));
    for (const admin of ['Providers', 'Models & routes', 'Users', 'Settings'])
      expect(links).not.toContain(admin);
    await screenshot(page, '12-user-navigation');
  });

  it('logged no console errors and no uncaught exceptions in the browser', () => {
    expect(errors.list()).toEqual([]);
  });
});
