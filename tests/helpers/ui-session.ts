import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type FakeUpstreams, startFakeUpstreams } from '../fakes/server';
import { interrupt, type StartedStack, startStackProcess } from '../setup/e2e-global';
import { type BrowserErrors, launchBrowser, watchErrors } from './browser';
import { recreateDatabase } from './databases';
import { pgUrl } from './env';

/** One UI test file's world: a fresh stack (as `npm start` runs it), fake upstreams, a browser page. */
export interface UiSession {
  stack: StartedStack;
  fakes: FakeUpstreams;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  errors: BrowserErrors;
  close(): Promise<void>;
}

/**
 * Starts it on a database and Redis db of the file's own (recreated and flushed first), so
 * nothing is shared with other suites. `clipboard` lets the page read what it copied.
 */
export async function startUiSession(options: {
  database: string;
  redisUrl: string;
  clipboard?: boolean;
}): Promise<UiSession> {
  await recreateDatabase(pgUrl(options.database));
  const redis = new Redis(options.redisUrl);
  await redis.flushdb();
  redis.disconnect();
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-ui-'));
  const fakes = await startFakeUpstreams();
  const stack = await startStackProcess(
    { DATABASE_URL: pgUrl(options.database), REDIS_URL: options.redisUrl },
    dataDir,
  );
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  if (options.clipboard) {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.consoleUrl });
  }
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const errors = watchErrors(page);
  return {
    stack,
    fakes,
    browser,
    context,
    page,
    errors,
    async close() {
      await browser.close();
      await interrupt(stack);
      await fakes.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Before each step: no modal left open by a failed one (the first Escape may only close a dropdown). */
export async function closeOpenDialogs(page: Page | undefined): Promise<void> {
  for (let i = 0; page && i < 3 && (await page.getByRole('dialog').count()) > 0; i++) {
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
  }
}

/** Clicks a link of the side navigation. */
export function navigate(page: Page, label: string): Promise<void> {
  return page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
}
