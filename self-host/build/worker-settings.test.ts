import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listModules } from './worker-build';
import { parseWorkerSettings } from './worker-settings';

const printed = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: 'gw',
    main: '/app/gateway-worker/src/worker.ts',
    compatibility_date: '2026-04-01',
    compatibility_flags: ['enable_request_signal'],
    vars: {},
    crons: [],
    unsupported: [],
    ...overrides,
  });

describe('wrangler.toml settings', () => {
  it('takes the last line of the reader, after any warning wrangler printed', () => {
    const settings = parseWorkerSettings(`▲ [WARNING] something\n${printed({ vars: { A: 'x' } })}\n`);
    expect(settings).toMatchObject({ compatibilityDate: '2026-04-01', vars: { A: 'x' } });
  });

  it('refuses bindings the self-host runtime cannot provide, naming them', () => {
    expect(() => parseWorkerSettings(printed({ unsupported: ['kv_namespaces', 'd1_databases'] }))).toThrow(
      /declares kv_namespaces, d1_databases/,
    );
  });

  it('refuses a missing compatibility date and var names that are not identifiers', () => {
    expect(() => parseWorkerSettings(printed({ compatibility_date: undefined }))).toThrow(
      /compatibility_date/,
    );
    expect(() => parseWorkerSettings(printed({ vars: { 'not-ok': 'x' } }))).toThrow(/vars\.not-ok/);
  });
});

describe('the modules wrangler wrote', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-modules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the entry first and leaves out source maps and the README', () => {
    mkdirSync(join(dir, 'chunks'));
    for (const file of ['README.md', 'worker.js', 'worker.js.map', 'chunks/a.js', 'chunks/b.wasm']) {
      writeFileSync(join(dir, file), '');
    }
    const modules = listModules(dir, '/app/gateway-worker/src/worker.ts');
    expect(modules.map(({ name, type }) => [name, type])).toEqual([
      ['worker.js', 'esModule'],
      ['chunks/a.js', 'esModule'],
      ['chunks/b.wasm', 'wasm'],
    ]);
  });

  it('fails when the entry is missing', () => {
    expect(() => listModules(dir, '/app/src/other.ts')).toThrow(/no other\.js/);
  });
});
