import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { appEnvironment, consoleEnvironment } from './app-env';
import { localUrl } from './banner';
import { ServeConfigError, serveOptionsFromEnv } from './serve-options';
import type { PreparedStores } from './stores/stores';

const STORES = { DATABASE_URL: 'postgres://app@db:5432/sluice', REDIS_URL: 'redis://cache:6379/0' };

describe('npm run serve options', () => {
  it('refuses to run without real stores and says what to do instead', () => {
    for (const env of [{}, { DATABASE_URL: STORES.DATABASE_URL }, { REDIS_URL: STORES.REDIS_URL }]) {
      expect(() => serveOptionsFromEnv(env)).toThrow(ServeConfigError);
    }
    expect(() => serveOptionsFromEnv({})).toThrow(/DATABASE_URL.*REDIS_URL.*npm start/s);
  });

  it('defaults to loopback, ports 3000/3001, a free bridge port and public+local outbound', () => {
    expect(serveOptionsFromEnv(STORES)).toMatchObject({
      host: '127.0.0.1',
      consoleHost: '127.0.0.1',
      gatewayPort: 3000,
      consolePort: 3001,
      bridgePort: 0,
      quiet: false,
      outboundAllow: ['public', 'local'],
      redisLink: true,
    });
  });

  it('sends the hot path over the Redis link unless SLUICE_REDIS_LINK=bridge', () => {
    expect(serveOptionsFromEnv({ ...STORES, SLUICE_REDIS_LINK: 'socket' }).redisLink).toBe(true);
    expect(serveOptionsFromEnv({ ...STORES, SLUICE_REDIS_LINK: 'bridge' }).redisLink).toBe(false);
    expect(() => serveOptionsFromEnv({ ...STORES, SLUICE_REDIS_LINK: 'tcp' })).toThrow(/SLUICE_REDIS_LINK/);
  });

  it('runs both apps unless SLUICE_SERVE names one', () => {
    expect(serveOptionsFromEnv(STORES).apps).toEqual({ gateway: true, console: true });
    expect(serveOptionsFromEnv({ ...STORES, SLUICE_SERVE: 'gateway' }).apps).toEqual({
      gateway: true,
      console: false,
    });
    expect(serveOptionsFromEnv({ ...STORES, SLUICE_SERVE: 'console' }).apps).toEqual({
      gateway: false,
      console: true,
    });
    expect(() => serveOptionsFromEnv({ ...STORES, SLUICE_SERVE: 'all' })).toThrow(/SLUICE_SERVE/);
  });

  it('runs one gateway process per core unless SLUICE_GATEWAY_PROCESSES says how many', () => {
    expect(serveOptionsFromEnv(STORES).gatewayProcesses).toBe(availableParallelism());
    expect(serveOptionsFromEnv({ ...STORES, SLUICE_GATEWAY_PROCESSES: '1' }).gatewayProcesses).toBe(1);
    expect(serveOptionsFromEnv({ ...STORES, SLUICE_GATEWAY_PROCESSES: '6' }).gatewayProcesses).toBe(6);
    for (const invalid of ['0', '-2', '1.5', 'two', '', ' ']) {
      expect(() => serveOptionsFromEnv({ ...STORES, SLUICE_GATEWAY_PROCESSES: invalid }), invalid).toThrow(
        /invalid configuration: SLUICE_GATEWAY_PROCESSES/,
      );
    }
  });

  it('leaves how the gateway processes listen to the system unless SLUICE_GATEWAY_SOCKETS says', () => {
    expect(serveOptionsFromEnv(STORES).gatewaySockets).toBeUndefined();
    for (const mode of ['per-process', 'shared'] as const) {
      expect(serveOptionsFromEnv({ ...STORES, SLUICE_GATEWAY_SOCKETS: mode }).gatewaySockets).toBe(mode);
    }
    expect(() => serveOptionsFromEnv({ ...STORES, SLUICE_GATEWAY_SOCKETS: 'reuseport' })).toThrow(
      /invalid configuration: SLUICE_GATEWAY_SOCKETS/,
    );
  });

  it('reads the same SLUICE_* variables as npm start, plus SLUICE_HOST and SLUICE_OUTBOUND_ALLOW', () => {
    const options = serveOptionsFromEnv({
      ...STORES,
      SLUICE_HOST: '0.0.0.0',
      SLUICE_CONSOLE_HOST: '127.0.0.1',
      SLUICE_GATEWAY_PORT: '9300',
      SLUICE_CONSOLE_PORT: '9301',
      SLUICE_SIDECAR_PORT: '9302',
      SLUICE_QUIET: '1',
      SLUICE_DATA_DIR: '/var/lib/sluice',
      SLUICE_OUTBOUND_ALLOW: 'public, private, 100.64.0.0/10',
    });
    expect(options).toMatchObject({
      host: '0.0.0.0',
      consoleHost: '127.0.0.1',
      gatewayPort: 9300,
      consolePort: 9301,
      bridgePort: 9302,
      quiet: true,
      dataDir: '/var/lib/sluice',
      outboundAllow: ['public', 'private', '100.64.0.0/10'],
    });
  });

  it('refuses bad ports, URLs and outbound names with the variable named', () => {
    expect(() => serveOptionsFromEnv({ ...STORES, SLUICE_GATEWAY_PORT: '70000' })).toThrow(
      /SLUICE_GATEWAY_PORT/,
    );
    expect(() => serveOptionsFromEnv({ ...STORES, REDIS_URL: 'http://cache' })).toThrow(/REDIS_URL/);
    expect(() => serveOptionsFromEnv({ ...STORES, SLUICE_OUTBOUND_ALLOW: 'everything' })).toThrow(
      /SLUICE_OUTBOUND_ALLOW/,
    );
  });

  it('refuses a DATABASE_URL that asks for TLS rather than going without it', () => {
    const tls = { ...STORES, DATABASE_URL: `${STORES.DATABASE_URL}?sslmode=require` };
    expect(() => serveOptionsFromEnv(tls)).toThrow(/sslmode=require.*without TLS/);
    const plain = { ...STORES, DATABASE_URL: `${STORES.DATABASE_URL}?sslmode=disable` };
    expect(serveOptionsFromEnv(plain).databaseUrl).toBe(plain.DATABASE_URL);
  });
});

describe('the apps’ environment', () => {
  const stores = {
    databaseUrl: 'postgres://app@db:5432/sluice',
    clickhouse: { CLICKHOUSE_URL: 'http://ch:8123', CLICKHOUSE_DATABASE: 'sluice' },
  } as PreparedStores;
  const bridge = {
    env: {
      NEON_LOCAL_HTTP: 'http://127.0.0.1:4000/sql',
      UPSTASH_REDIS_REST_URL: 'http://127.0.0.1:4000',
      UPSTASH_REDIS_REST_TOKEN: 'token',
    },
  };
  const secrets = { SLUICE_JWT_SECRET: 'j'.repeat(40), SLUICE_ENCRYPTION_KEY: 'k'.repeat(43) };

  it('passes app settings on, keeps the supervisor’s own, and lets computed values win', () => {
    const env = appEnvironment({
      stores,
      bridge,
      secrets,
      env: {
        SLUICE_LOG_LEVEL: 'DEBUG',
        SLUICE_STORE_TIMEOUT_MS: '1500',
        SLUICE_GATEWAY_PORT: '3000',
        SLUICE_DATA_DIR: '/tmp',
        SLUICE_GATEWAY_PROCESSES: '4',
        SLUICE_JWT_SECRET: 'ignored: the loaded secret wins',
        DATABASE_URL: 'postgres://elsewhere/x',
        PATH: '/usr/bin',
      },
      gatewayHost: '0.0.0.0',
    });
    expect(env).toEqual({
      SLUICE_LOG_LEVEL: 'DEBUG',
      SLUICE_STORE_TIMEOUT_MS: '1500',
      DATABASE_URL: stores.databaseUrl,
      ...bridge.env,
      ...secrets,
      CLICKHOUSE_URL: 'http://ch:8123',
      CLICKHOUSE_DATABASE: 'sluice',
    });
  });
});

describe('the console’s Redis', () => {
  const appEnv = { DATABASE_URL: 'postgres://x/y', UPSTASH_REDIS_REST_URL: 'http://127.0.0.1:4000' };

  it('is the real Redis itself when the stack has one, and the bridge’s endpoint for the embedded store', () => {
    expect(consoleEnvironment(appEnv, { redisUrl: 'redis://:pw@cache:6380/2' })).toEqual({
      ...appEnv,
      REDIS_URL: 'redis://:pw@cache:6380/2',
    });
    expect(consoleEnvironment(appEnv, { redisUrl: null })).toEqual(appEnv);
  });
});

describe('the ports the apps are given', () => {
  it('are the ones this stack listens on, not the supervisor’s variables (what their access logs record)', () => {
    const env = appEnvironment({
      stores: { databaseUrl: 'postgres://x/y', clickhouse: null } as never,
      bridge: { env: {} as never },
      secrets: { SLUICE_JWT_SECRET: 'j'.repeat(40), SLUICE_ENCRYPTION_KEY: 'k'.repeat(43) },
      env: { SLUICE_GATEWAY_PORT: '3000', SLUICE_CONSOLE_PORT: '3001' },
      gatewayHost: '127.0.0.1',
      ports: { gateway: 9300, console: 9301 },
    });
    expect(env).toMatchObject({ SLUICE_GATEWAY_PORT: '9300', SLUICE_CONSOLE_PORT: '9301' });
  });
});

describe('/mcp host names', () => {
  const base = {
    stores: { databaseUrl: 'postgres://x/y', clickhouse: null } as never,
    bridge: {
      env: {
        NEON_LOCAL_HTTP: '',
        UPSTASH_REDIS_REST_URL: '',
        UPSTASH_REDIS_REST_TOKEN: '',
      },
    },
    secrets: { SLUICE_JWT_SECRET: 'j'.repeat(40), SLUICE_ENCRYPTION_KEY: 'k'.repeat(43) },
  };

  it('are the loopback names when the gateway listens on loopback, unless set', () => {
    const local = appEnvironment({ ...base, env: {}, gatewayHost: '127.0.0.1' });
    expect(local.SLUICE_MCP_ALLOWED_HOSTS).toBe('localhost,127.0.0.1,[::1]');
    const chosen = appEnvironment({
      ...base,
      env: { SLUICE_MCP_ALLOWED_HOSTS: 'mcp.example.com' },
      gatewayHost: '127.0.0.1',
    });
    expect(chosen.SLUICE_MCP_ALLOWED_HOSTS).toBe('mcp.example.com');
    expect(
      appEnvironment({ ...base, env: {}, gatewayHost: '0.0.0.0' }).SLUICE_MCP_ALLOWED_HOSTS,
    ).toBeUndefined();
  });
});

describe('local URLs for the banner and readiness checks', () => {
  it('reaches wildcard binds on loopback and brackets IPv6', () => {
    expect(localUrl('127.0.0.1', 3000)).toBe('http://127.0.0.1:3000');
    expect(localUrl('0.0.0.0', 3000)).toBe('http://127.0.0.1:3000');
    expect(localUrl('::', 3000)).toBe('http://[::1]:3000');
    expect(localUrl('10.0.0.5', 3000)).toBe('http://10.0.0.5:3000');
  });
});
