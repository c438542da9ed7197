import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccessLogRecord } from '@sluice/shared/logs/server';
import { PASSTHROUGH_TRACER } from '@sluice/shared/telemetry';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleApp } from './app';
import type { ConsoleDeps } from './types';
import { uiStatic } from './ui-static';

const dir = mkdtempSync(join(tmpdir(), 'sluice-ui-'));
mkdirSync(join(dir, 'assets'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>ui</title>');
writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// These requests reach no handler that reads deps; the access log is the only one written.
const recorded: AccessLogRecord[] = [];
const recordAccess = async (record: AccessLogRecord) => {
  recorded.push(record);
};
const app = createConsoleApp({ recordAccess, tracer: PASSTHROUGH_TRACER } as unknown as ConsoleDeps, {
  ui: uiStatic(dir),
});

describe('the console serves the built web UI', () => {
  it('answers files from the build and index.html for every other non-/api page', async () => {
    const asset = await app.request('/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(await asset.text()).toBe('console.log(1)');
    for (const path of ['/', '/keys', '/logs/gateway?offset=50', '/assets/missing.js']) {
      const page = await app.request(path);
      expect(page.status, path).toBe(200);
      expect(await page.text(), path).toContain('<title>ui</title>');
    }
  });

  it('leaves /api alone: unknown API paths keep the JSON 404 envelope, non-GETs are not the UI', async () => {
    const missing = await app.request('/api/no-such-route');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { message: 'No route for GET /api/no-such-route', type: 'not_found_error' },
    });
    expect((await app.request('/keys', { method: 'POST' })).status).toBe(404);
    expect((await app.request('/api/openapi.json')).headers.get('content-type')).toMatch(/json/);
  });

  it("leaves the UI's asset loads out of the access log; page loads, failures and the API stay in", async () => {
    recorded.length = 0;
    await app.request('/assets/app.js'); // a file of the build: an asset load
    await app.request('/assets/app.js', { method: 'HEAD' });
    await app.request('/'); // index.html as a file of the build: still a page load
    await app.request('/logs/access'); // index.html for a UI route: the page load
    await app.request('/assets/missing.js'); // not in the build: the page, recorded
    await app.request('/assets/app.js', { method: 'POST' }); // not served as a file: a 404
    await app.request('/api/no-such-route');
    expect(recorded.map((r) => `${r.method} ${r.path} ${r.statusCode}`)).toEqual([
      'GET / 200',
      'GET /logs/access 200',
      'GET /assets/missing.js 200',
      'POST /assets/app.js 404',
      'GET /api/no-such-route 404',
    ]);
  });

  it('serves nothing without a build', () => {
    expect(uiStatic(join(dir, 'nope'))).toBeUndefined();
  });
});
