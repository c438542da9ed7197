import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type ConsoleMessage, chromium, type Page } from 'playwright-core';

/** Debian's chromium (apt `chromium`, installed by .ci/run); override with SLUICE_CHROMIUM. */
export const CHROMIUM_PATH = process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-artifacts', 'ui');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
    ],
  });
}

export interface BrowserErrors {
  /** Every console error and uncaught page error so far, minus the expected ones. */
  list(): string[];
  /** A failed request the test provokes on purpose (a 422): its console line is not an error. */
  expectFailure(urlPart: string, status: number): void;
}

/**
 * Collects console errors and uncaught exceptions. Chromium logs every 4xx/5xx response as a
 * console error ("Failed to load resource"); those count unless the test announced them.
 */
export function watchErrors(page: Page): BrowserErrors {
  const errors: string[] = [];
  const expected: Array<{ urlPart: string; status: number }> = [];
  const isExpected = (message: ConsoleMessage) => {
    const url = message.location().url;
    return expected.some((e) => url.includes(e.urlPart) && message.text().includes(`status of ${e.status}`));
  };
  page.on('console', (message) => {
    if (message.type() === 'error' && !isExpected(message))
      errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.stack ?? String(error)}`));
  return {
    list: () => [...errors],
    expectFailure: (urlPart, status) => expected.push({ urlPart, status }),
  };
}

/** Full-page PNG under test-artifacts/ui (gitignored), for a human to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Let modal and drawer transitions finish, so the picture shows what a user sees.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
