// The user's part of the conformance suite's authorization-code-grant scenario: the suite
// prints the authorization URL and waits for the browser to come back to its callback. This
// watches the suite's output (a file) for that URL, opens it in Debian's chromium, signs in to
// the console and allows the request on the consent screen.
// Usage: tsx consent-in-browser.ts <suite output file> <authorize URL prefix> <email> <password>
import { existsSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [outputFile = '', prefix = '', email = '', password = ''] = process.argv.slice(2);
const deadline = Date.now() + 120_000;

async function authorizationUrl(): Promise<string> {
  while (Date.now() < deadline) {
    const lines = existsSync(outputFile) ? readFileSync(outputFile, 'utf8').split('\n') : [];
    const line = lines.find((l) => l.trim().startsWith(prefix));
    if (line) return line.trim();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no authorization URL starting with ${prefix} in ${outputFile}`);
}

const url = await authorizationUrl();
const browser = await chromium.launch({
  executablePath: process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  await page.goto(url);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((landed) => landed.pathname === '/callback');
  console.log('consent: allowed in the browser');
} finally {
  await browser.close();
}
