// Issue: embedded-mode smoke — `npm start` with no store configured uses PGlite and an
// in-memory cache, labels them, survives a restart with its data, and stops on Ctrl-C.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walkFirstRun } from '../helpers/first-run';
import { http } from '../helpers/http';
import { interrupt, startStackProcess } from '../setup/e2e-global';

// A data directory that does not exist yet, as on a fresh clone.
const parent = mkdtempSync(join(tmpdir(), 'sluice-embedded-'));
const dataDir = join(parent, 'not-yet', '.sluice');
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('embedded defaults', () => {
  it('start, initialize, log in, stop on Ctrl-C, and keep the data across a restart', async () => {
    const first = await startStackProcess({}, dataDir);
    try {
      expect(first.output()).toContain('EMBEDDED PGlite');
      expect(first.output()).toContain('not for production');
      await walkFirstRun(first.consoleUrl, first.gatewayUrl);
    } finally {
      expect(await interrupt(first)).toBe(0);
    }
    // Ctrl-C stopped everything: nothing answers on either port any more.
    for (const url of [first.gatewayUrl, first.consoleUrl]) {
      const refused = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).catch(
        (e: Error) => e,
      );
      expect((refused as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    }

    const second = await startStackProcess({}, dataDir);
    try {
      const status = await http('GET', `${second.consoleUrl}/api/setup/status`);
      expect(status.body).toEqual({ initialized: true, needs_setup: false });
      const login = await http('POST', `${second.consoleUrl}/api/auth/login`, {
        body: { email: 'first@example.com', password: 'first-run-password' },
      });
      expect(login.status).toBe(200);
      const me = await http('GET', `${second.consoleUrl}/api/auth/me`, { token: login.body.access_token });
      expect(me.status).toBe(200);
    } finally {
      expect(await interrupt(second)).toBe(0);
    }
  });
});
