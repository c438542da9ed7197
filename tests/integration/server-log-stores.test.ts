// Access and application logs: the AccessLogStore and AppLogStore ports through both
// adapters and the real drivers — Postgres `access_logs`/`app_logs` via the dev sidecar (Neon
// HTTP) and ClickHouse 18.16 via @clickhouse/client-web. One contract suite; the expected answers
// come from a plain in-memory model of each filter, so both adapters must agree with it exactly.
import type { ClickHouseClient } from '@clickhouse/client-web';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { createAnalyticsStore } from '../../shared/src/logs/analytics/store';
import type { AnalyticsStoreOptions } from '../../shared/src/logs/analytics/target';
import {
  type AccessLogRecord,
  type AccessLogSearch,
  type AccessLogStore,
  type AppLogRecord,
  type AppLogSearch,
  type AppLogStore,
  LOG_LEVELS,
} from '../../shared/src/logs/server/index';
import { statusRange } from '../../shared/src/logs/status-match';
import { createClickHouse, ensureClickHouseDatabase } from '../../shared/src/stores/clickhouse';
import { configureNeon, createHttpDb } from '../../shared/src/stores/neon';
import { CLICKHOUSE_URL } from '../helpers/env';
import { freshDatabase } from '../helpers/stores';

const CH_DATABASE = 'sluice_l_server_logs';
const U1 = '61000000-0000-4000-8000-000000000001';
const U2 = '62000000-0000-4000-8000-000000000002';
const T0 = Date.UTC(2025, 6, 1, 12, 0, 0, 500);
/** Every character a LIKE pattern or a SQL literal could misread. */
const TRICKY = "50%_off'\\x";

const id = (prefix: string, i: number) =>
  `${prefix}${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`;

/** Requests to both ports, with ties (same instant), the tricky characters and missing fields. */
function accessFixtures(): AccessLogRecord[] {
  const base = (i: number): AccessLogRecord => ({
    id: id('a', i),
    createdAt: new Date(T0 + i * 1000),
    source: i % 2 === 0 ? 'gateway' : 'console',
    port: i % 2 === 0 ? 3000 : 3001,
    method: i % 3 === 0 ? 'POST' : 'GET',
    path: i % 3 === 0 ? '/v1/chat/completions' : `/api/keys/${i}`,
    statusCode: i % 4 === 0 ? 502 : 200,
    userId: i % 5 === 0 ? null : i % 2 === 0 ? U1 : U2,
    latencyMs: i * 7,
    ip: i % 2 === 0 ? '203.0.113.7' : null,
    userAgent: i % 2 === 0 ? 'OpenAI/Python 1.0' : 'Mozilla/5.0',
  });
  return [
    ...Array.from({ length: 10 }, (_, i) => base(i)),
    { ...base(10), path: `/api/${TRICKY}/Ünïcode`, userAgent: null, ip: null },
    { ...base(11), path: '/api/50xoff', userAgent: "agent 50%_off'\\x" },
    // Two rows at the same instant as a0000000, and one 499 ms earlier in the same second.
    { ...base(12), id: 'f0000000-0000-4000-8000-000000000001', createdAt: new Date(T0) },
    { ...base(13), id: '00000000-0000-4000-8000-000000000001', createdAt: new Date(T0), method: 'DELETE' },
    { ...base(14), createdAt: new Date(T0 - 499), statusCode: 404 },
    { ...base(15), createdAt: new Date(Date.UTC(2001, 0, 1, 0, 0, 0, 1)), latencyMs: 2 ** 31 - 1 },
    // A server on a port of its own; one recorded before the server was (source null).
    { ...base(16), source: 'console', port: 9301, statusCode: 429 },
    { ...base(17), source: null, port: 65_535, statusCode: 301 },
  ];
}

function appFixtures(): AppLogRecord[] {
  const levels = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
  const base = (i: number): AppLogRecord => ({
    id: id('b', i),
    createdAt: new Date(T0 + i * 1000),
    level: levels[i % 5] ?? 'INFO',
    source: i % 2 === 0 ? 'gateway' : 'console',
    target: ['proxy', 'limits', 'key-jobs', 'mcp'][i % 4] ?? 'proxy',
    message: `message ${i}`,
    fields: i % 3 === 0 ? {} : { n: i, nested: { list: [1, 'two', null] }, ok: true },
  });
  return [
    ...Array.from({ length: 10 }, (_, i) => base(i)),
    { ...base(10), message: `cache ${TRICKY} down`, fields: { error: `it's "broken"\n\\ 中文 😀` } },
    { ...base(11), message: 'cache 50xoff down', target: `t_${TRICKY}` },
    { ...base(12), id: 'f0000000-0000-4000-8000-000000000002', createdAt: new Date(T0) },
    {
      ...base(13),
      id: '00000000-0000-4000-8000-000000000002',
      createdAt: new Date(T0),
      message: 'Request LOG failed',
    },
    { ...base(14), createdAt: new Date(T0 - 499), level: 'ERROR' },
  ];
}

const byNewest = <R extends { id: string; createdAt: Date }>(a: R, b: R) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const has = (text: string | null, needle: string) =>
  text?.toLowerCase().includes(needle.toLowerCase()) === true;
const inRange = (at: Date, from?: Date, to?: Date) =>
  (from === undefined || at.getTime() >= from.getTime()) &&
  (to === undefined || at.getTime() <= to.getTime());

function page<R extends { id: string; createdAt: Date }>(rows: R[], limit = 50, offset = 0) {
  const sorted = [...rows].sort(byNewest);
  return { total: sorted.length, entries: sorted.slice(offset, offset + limit) };
}

const inStatus = (code: number, range: { min: number; max: number }) =>
  code >= range.min && code <= range.max;

function accessModel(all: readonly AccessLogRecord[], f: AccessLogSearch) {
  const rows = all.filter(
    (r) =>
      (f.method === undefined || r.method === f.method.toUpperCase()) &&
      (f.path === undefined || has(r.path, f.path)) &&
      (f.statusCode === undefined || inStatus(r.statusCode, statusRange(f.statusCode))) &&
      (f.source === undefined || r.source === f.source) &&
      (f.port === undefined || r.port === f.port) &&
      (f.userId === undefined || r.userId === f.userId.toLowerCase()) &&
      (f.q === undefined || has(r.path, f.q) || has(r.userAgent, f.q)) &&
      inRange(r.createdAt, f.from, f.to),
  );
  return page(rows, f.limit, f.offset);
}

function appModel(all: readonly AppLogRecord[], f: AppLogSearch) {
  const rows = all.filter(
    (r) =>
      (f.level === undefined || LOG_LEVELS[r.level] >= LOG_LEVELS[f.level]) &&
      (f.target === undefined || has(r.target, f.target)) &&
      (f.q === undefined || has(r.message, f.q)) &&
      inRange(r.createdAt, f.from, f.to),
  );
  return page(rows, f.limit, f.offset);
}

let ch: ClickHouseClient;
const targets = {} as Record<'postgres' | 'clickhouse', AnalyticsStoreOptions>;

beforeAll(async () => {
  const sidecar = inject('sidecarEnv');
  configureNeon({ httpEndpoint: sidecar.NEON_LOCAL_HTTP });
  const url = await freshDatabase('sluice_l_server_logs');
  ch = createClickHouse({ url: CLICKHOUSE_URL, database: 'default', requestTimeoutMs: 10_000 });
  await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(CH_DATABASE)}`.sql });
  targets.postgres = { db: createHttpDb(url) };
  // No db: the factories must not touch Postgres when ClickHouse is configured.
  targets.clickhouse = {
    db: undefined as never,
    clickhouse: {
      client: ch,
      database: CH_DATABASE,
      ensureDatabase: () => ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: CH_DATABASE }),
    },
  };
});

afterAll(async () => {
  await ch?.close();
});

describe.each(['postgres', 'clickhouse'] as const)('access log store (%s)', (name) => {
  const stored: AccessLogRecord[] = [];
  let store: AccessLogStore;
  const expectSearch = async (filter: AccessLogSearch) =>
    expect(await store.search(filter), JSON.stringify(filter)).toEqual(accessModel(stored, filter));

  beforeAll(() => {
    store = createAnalyticsStore(targets[name]).access;
  });

  it('is empty before the first insert; an empty batch is a no-op', async () => {
    await store.insert([]);
    expect(await store.search({})).toEqual({ total: 0, entries: [] });
  });

  it('round-trips every field, newest first with ties by id descending', async () => {
    const records = accessFixtures();
    await store.insert(records.slice(0, 5));
    await store.insert(records.slice(5));
    stored.push(...records);
    const listed = await store.search({});
    expect(listed).toEqual(accessModel(stored, {}));
    expect(listed.total).toBe(18);
    expect(listed.entries.slice(-5).map((r) => r.id.slice(0, 8))).toEqual([
      'f0000000',
      'a0000000',
      '00000000',
      'a0000014',
      'a0000015',
    ]);
  });

  it('filters by method (any case), status code, port and user, alone and combined', async () => {
    const filters: AccessLogSearch[] = [
      { method: 'post' },
      { method: 'GET' },
      { method: 'Delete' },
      { method: 'PATCH' },
      { statusCode: 502 },
      { statusCode: 404 },
      { port: 3000 },
      { port: 3001, method: 'get' },
      { userId: U1 },
      { userId: U2.toUpperCase() },
      { userId: '99999999-0000-4000-8000-000000000000' },
      { port: 3000, statusCode: 502, userId: U1 },
      { port: 9301 },
      { port: 65_535 },
      // Classes of codes, alone and with the server that answered.
      { statusCode: '5xx' },
      { statusCode: '4xx' },
      { statusCode: '3xx' },
      { statusCode: '2xx', port: 3000 },
      { source: 'console' },
      { source: 'gateway', statusCode: '5xx' },
      { source: 'console', statusCode: '4xx', port: 9301 },
    ];
    for (const filter of filters) await expectSearch(filter);
    expect((await store.search({ method: 'post' })).total).toBe(6);
  });

  it("matches path and q as case-insensitive substrings, taking % _ ' \\ literally", async () => {
    const filters: AccessLogSearch[] = [
      { path: '/v1/' },
      { path: '/API/KEYS' },
      { path: TRICKY },
      { path: '50%_off' },
      { path: '%' },
      { path: '_' },
      { path: "'" },
      { path: '\\' },
      { path: 'ünïcode' },
      { q: 'openai/python' },
      { q: TRICKY },
      { q: 'mozilla', port: 3001 },
      { q: 'nothing-like-this' },
    ];
    for (const filter of filters) await expectSearch(filter);
    // Only the literal 50%_off matches: not /api/50xoff (which a raw LIKE `50%_off` would).
    expect((await store.search({ path: '50%_off' })).entries.map((r) => r.id)).toEqual([id('a', 10)]);
    // q looks at the user agent too: a0000011's path has no %, its agent does.
    expect((await store.search({ q: '50%_off' })).entries.map((r) => r.id)).toEqual([
      id('a', 11),
      id('a', 10),
    ]);
  });

  it('filters by an inclusive created_at range to the millisecond', async () => {
    const filters: AccessLogSearch[] = [
      { from: new Date(T0) },
      { from: new Date(T0 + 1) },
      { to: new Date(T0) },
      { to: new Date(T0 - 1) },
      { from: new Date(T0 - 499), to: new Date(T0 - 499) },
      { from: new Date(T0), to: new Date(T0 + 3000), port: 3000 },
      { from: new Date(Date.UTC(2200, 0, 1)) },
    ];
    for (const filter of filters) await expectSearch(filter);
    expect((await store.search({ from: new Date(T0 - 499), to: new Date(T0 - 499) })).total).toBe(1);
  });

  it('pages stably with the total of all matches on every page; 50 by default, at most 200', async () => {
    const paged: AccessLogRecord[] = [];
    for (let offset = 0; offset < stored.length; offset += 3) {
      const result = await store.search({ limit: 3, offset });
      expect(result.total).toBe(stored.length);
      paged.push(...result.entries);
    }
    expect(paged).toEqual(accessModel(stored, { limit: 200 }).entries);
    await expectSearch({ port: 3000, limit: 2, offset: 2 });
    const many = Array.from({ length: 205 }, (_, i) => ({
      ...accessFixtures()[1],
      id: id('c', i),
      createdAt: new Date(T0 + 7e9),
      path: '/bulk',
    })) as AccessLogRecord[];
    await store.insert(many);
    stored.push(...many);
    expect((await store.search({ path: '/bulk' })).entries).toHaveLength(50);
    const max = await store.search({ path: '/bulk', limit: 200 });
    expect([max.total, max.entries.length]).toEqual([205, 200]);
    await expectSearch({ path: '/bulk', limit: 200, offset: 200 });
  });

  it('refuses bad searches and unstorable records with a RangeError, storing nothing of that batch', async () => {
    for (const filter of [
      { limit: 201 },
      { limit: 0 },
      { offset: -1 },
      { port: 0 },
      { port: 65_536 },
      { statusCode: 99 },
      { statusCode: '6xx' },
      { source: 'proxy' },
      { method: 'GE T' },
      { userId: 'nope' },
      { path: '' },
      { q: 'a\u0000' },
      { from: new Date(T0 + 1), to: new Date(T0) },
      { from: new Date(Number.NaN) },
    ] as AccessLogSearch[]) {
      await expect(store.search(filter), JSON.stringify(filter)).rejects.toThrow(RangeError);
    }
    const good = { ...accessFixtures()[2], id: id('d', 1), path: '/refused-batch' } as AccessLogRecord;
    for (const bad of [
      { latencyMs: -1 },
      { port: 0 },
      { port: 1.5 },
      { source: 'proxy' },
      { path: 'a\u0000b' },
      { statusCode: 600 },
      { userId: 'x' },
    ] as Partial<AccessLogRecord>[]) {
      await expect(store.insert([good, { ...good, id: id('d', 2), ...bad }])).rejects.toThrow(RangeError);
    }
    expect(await store.search({ path: '/refused-batch' })).toEqual({ total: 0, entries: [] });
  });
});

describe.each(['postgres', 'clickhouse'] as const)('app log store (%s)', (name) => {
  const stored: AppLogRecord[] = [];
  let store: AppLogStore;
  const expectSearch = async (filter: AppLogSearch) =>
    expect(await store.search(filter), JSON.stringify(filter)).toEqual(appModel(stored, filter));

  beforeAll(() => {
    store = createAnalyticsStore(targets[name]).app;
  });

  it('round-trips every field (fields as JSON), newest first with ties by id descending', async () => {
    expect(await store.search({})).toEqual({ total: 0, entries: [] });
    const records = appFixtures();
    await store.insert(records);
    stored.push(...records);
    const listed = await store.search({});
    expect(listed).toEqual(appModel(stored, {}));
    expect(listed.entries.slice(-4).map((r) => r.id.slice(0, 8))).toEqual([
      'f0000000',
      'b0000000',
      '00000000',
      'b0000014',
    ]);
  });

  it('filters by a minimum level: WARN means WARN and ERROR', async () => {
    for (const level of ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const) await expectSearch({ level });
    const warn = await store.search({ level: 'WARN', limit: 200 });
    expect(new Set(warn.entries.map((r) => r.level))).toEqual(new Set(['WARN', 'ERROR']));
    expect(warn.total).toBe(stored.filter((r) => r.level === 'WARN' || r.level === 'ERROR').length);
  });

  it("matches target and q as case-insensitive substrings, taking % _ ' \\ literally", async () => {
    const filters: AppLogSearch[] = [
      { target: 'PROXY' },
      { target: 'key-' },
      { target: TRICKY },
      { target: '_' },
      { q: 'request log' },
      { q: TRICKY },
      { q: '50%_off' },
      { q: '%' },
      { q: "'" },
      { q: '\\' },
      { q: 'message', level: 'WARN', target: 'mcp' },
    ];
    for (const filter of filters) await expectSearch(filter);
    expect((await store.search({ q: '50%_off' })).entries.map((r) => r.id)).toEqual([id('b', 10)]);
    expect((await store.search({ target: '_' })).entries.map((r) => r.id)).toEqual([id('b', 11)]);
  });

  it('filters by an inclusive range and pages stably', async () => {
    for (const filter of [
      { from: new Date(T0) },
      { to: new Date(T0 - 1) },
      { from: new Date(T0 - 499), to: new Date(T0) },
      { level: 'ERROR', from: new Date(T0 - 499) },
    ] as AppLogSearch[]) {
      await expectSearch(filter);
    }
    const paged: AppLogRecord[] = [];
    for (let offset = 0; offset < stored.length; offset += 4) {
      const result = await store.search({ limit: 4, offset });
      expect(result.total).toBe(stored.length);
      paged.push(...result.entries);
    }
    expect(paged).toEqual(appModel(stored, { limit: 200 }).entries);
  });

  it('refuses bad searches and unstorable records with a RangeError', async () => {
    for (const filter of [
      { level: 'VERBOSE' },
      { level: 'warn' },
      { limit: 201 },
      { target: '' },
      { q: 'x'.repeat(257) },
      { from: new Date(T0 + 1), to: new Date(T0) },
    ] as AppLogSearch[]) {
      await expect(store.search(filter), JSON.stringify(filter)).rejects.toThrow(RangeError);
    }
    const good = { ...appFixtures()[0], id: id('e', 1), target: 'refused-batch' } as AppLogRecord;
    for (const bad of [
      { level: 'NOTICE' },
      { source: 'worker' },
      { message: 'a\u0000' },
      { fields: [] },
      { fields: { s: '\uD800' } },
    ] as Partial<AppLogRecord>[]) {
      await expect(store.insert([good, { ...good, id: id('e', 2), ...bad } as AppLogRecord])).rejects.toThrow(
        RangeError,
      );
    }
    expect(await store.search({ target: 'refused-batch' })).toEqual({ total: 0, entries: [] });
  });
});
