// The self-host gateway's `workerd serve` config is generated from
// wrangler.toml: its compatibility date and flags, [vars], the runtime bindings, the socket.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkerSettings, type WorkerSettings, WRANGLER_TOML } from '../build/worker-settings';
import { socketAddress, text, workerdConfig } from './workerd-config';

const fixtureDir = mkdtempSync(join(tmpdir(), 'sluice-workerd-config-'));
afterAll(() => rmSync(fixtureDir, { recursive: true, force: true }));

/** A wrangler.toml with [vars] of both kinds (the project's own has none today). */
const FIXTURE_TOML = `name = "fixture-gateway"
main = "src/entry.ts"
compatibility_date = "2026-03-15"
compatibility_flags = ["enable_request_signal", "nodejs_compat"]

[vars]
GREETING = "say \\"hi\\" \\\\ bye\\n"
LIMITS = { max = 3, names = ["a", "b"] }
`;

let fixture: WorkerSettings;
let project: WorkerSettings;
beforeAll(async () => {
  writeFileSync(join(fixtureDir, 'wrangler.toml'), FIXTURE_TOML);
  [fixture, project] = await Promise.all([
    readWorkerSettings(join(fixtureDir, 'wrangler.toml')),
    readWorkerSettings(WRANGLER_TOML),
  ]);
}, 30_000);

function configFor(
  settings: WorkerSettings,
  overrides: { address?: string; bindings?: string[]; redisLink?: boolean; v8Flags?: string[] } = {},
): string {
  const build = join(fixtureDir, 'build');
  return workerdConfig({
    settings,
    modules: [
      { name: 'entry.js', type: 'esModule', path: join(build, 'entry.js') },
      { name: 'chunks/data.wasm', type: 'wasm', path: join(build, 'chunks/data.wasm') },
    ],
    configDirectory: build,
    environmentBindings: overrides.bindings ?? ['DATABASE_URL', 'UPSTASH_REDIS_REST_TOKEN'],
    address: overrides.address ?? '127.0.0.1:3000',
    outboundAllow: ['public', 'local'],
    redisLink: overrides.redisLink ?? false,
    v8Flags: overrides.v8Flags,
  });
}

describe('workerd config from wrangler.toml', () => {
  it("carries the project's compatibility date and flags (enable_request_signal included)", () => {
    const toml = readFileSync(WRANGLER_TOML, 'utf8');
    const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
    const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1];
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const config = configFor(project);
    expect(config).toContain(`compatibilityDate = "${date}",`);
    expect(flags).toContain('"enable_request_signal"');
    expect(config).toMatch(/compatibilityFlags = \[\s*"enable_request_signal",\s*\]/);
  });

  it('turns [vars] into text and JSON bindings, escaped for Cap’n Proto', () => {
    expect(fixture.compatibilityDate).toBe('2026-03-15');
    const config = configFor(fixture);
    expect(config).toContain('compatibilityDate = "2026-03-15",');
    expect(config).toMatch(/compatibilityFlags = \[\s*"enable_request_signal",\s*"nodejs_compat",\s*\]/);
    expect(config).toContain('(name = "GREETING", text = "say \\"hi\\" \\\\ bye\\n")');
    expect(config).toContain('(name = "LIMITS", json = "{\\"max\\":3,\\"names\\":[\\"a\\",\\"b\\"]}")');
  });

  it('reads runtime values from the environment, so the file holds names and no secret', () => {
    const config = configFor(fixture, { bindings: ['DATABASE_URL', 'GREETING'] });
    expect(config).toContain('(name = "DATABASE_URL", fromEnvironment = "DATABASE_URL")');
    // A runtime value wins over a var of the same name, and the var is not bound twice.
    expect(config).toContain('(name = "GREETING", fromEnvironment = "GREETING")');
    expect(config).not.toContain('(name = "GREETING", text');
    expect(config).not.toMatch(/postgres:\/\//);
  });

  it('embeds the entry module first and the others by their path relative to the config', () => {
    const config = configFor(fixture);
    const entry = config.indexOf('(name = "entry.js", esModule = embed "entry.js")');
    const wasm = config.indexOf('(name = "chunks/data.wasm", wasm = embed "chunks/data.wasm")');
    expect(entry).toBeGreaterThan(0);
    expect(wasm).toBeGreaterThan(entry);
  });

  it('listens on the given socket and sends every fetch through the restricted outbound', () => {
    const config = configFor(fixture, { address: socketAddress('0.0.0.0', 8787) });
    expect(config).toContain('(name = "http", address = "0.0.0.0:8787", http = (), service = "gateway")');
    expect(config).toContain('globalOutbound = "outbound"');
    expect(config).toMatch(/\(name = "outbound", network = \(\s*allow = \[\s*"public",\s*"local",\s*\],/);
    expect(config).toContain('tlsOptions = (trustBrowserCas = true)');
  });

  it('binds the Redis link, an in-memory Durable Object namespace, only when asked', () => {
    const linked = configFor(fixture, { redisLink: true });
    expect(linked).toContain('(name = "REDIS_LINK", durableObjectNamespace = "RedisLink")');
    expect(linked).toContain(
      'durableObjectNamespaces = [(className = "RedisLink", uniqueKey = "sluice-redis-link")]',
    );
    expect(linked).toContain('durableObjectStorage = (inMemory = void)');
    const unlinked = configFor(fixture);
    expect(unlinked).not.toContain('REDIS_LINK');
    expect(unlinked).not.toContain('durableObject');
  });

  it('passes V8 flags to the process only when given (WORKERD_V8_FLAGS)', () => {
    const traced = configFor(fixture, { v8Flags: ['--trace-gc', '--max-semi-space-size=64'] });
    expect(traced).toMatch(
      /\],\n {2}v8Flags = \[\n {4}"--trace-gc",\n {4}"--max-semi-space-size=64",\n {2}\],\n\);/,
    );
    expect(configFor(fixture)).not.toContain('v8Flags');
    expect(configFor(fixture, { v8Flags: [] })).not.toContain('v8Flags');
  });

  it('puts IPv6 socket addresses in brackets', () => {
    expect(socketAddress('::', 3000)).toBe('[::]:3000');
    expect(socketAddress('[::1]', 3000)).toBe('[::1]:3000');
    expect(socketAddress('127.0.0.1', 3000)).toBe('127.0.0.1:3000');
  });

  it('escapes control characters and keeps UTF-8 as is', () => {
    expect(text('a\tb\rc\u0001d\u007fé✓')).toBe('"a\\tb\\rc\\x01d\\x7fé✓"');
  });
});
