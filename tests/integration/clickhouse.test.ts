// Values reach ClickHouse 18.16 only through chSql / the client's JSONEachRow encoder and
// round-trip exactly; the client is configured so 18.16 accepts it. Uses @clickhouse/client-web
// only, against the real server.
import type { ClickHouseClient } from '@clickhouse/client-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChSql, chIdent, chJoin, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import {
  CLICKHOUSE_ROW_FORMAT,
  createClickHouse,
  ensureClickHouseDatabase,
  pingClickHouse,
} from '../../shared/src/stores/clickhouse';
import { CLICKHOUSE_URL } from '../helpers/env';

const DATABASE = 'sluice_ch_test';
const TABLE = chIdent(DATABASE, 'nasty');
const VALUES_ID_OFFSET = 1000;

const NASTY: readonly string[] = [
  "it's",
  "'; DROP TABLE x; --",
  "\\'",
  "\\\\'; SELECT 1; --",
  '\\',
  'trailing backslash\\',
  'line1\nline2\r\nline3',
  'tab\there',
  'nul\u0000byte',
  '\u0001\u0007\b\f\u000b\u001f\u007f',
  'unicode é中文 ü \u2028\u2029 \uFEFF',
  'emoji 😀👍🏽 👨‍👩‍👧',
  '"double" `backtick`',
  "a'b''c'''",
  '{x:String} ? $1 %s',
  '/* comment */ -- comment',
  '\\x41 \\0 \\n \\u0041 literal backslash escapes',
  '',
  ' ',
  'long '.repeat(2000),
];

interface Row {
  id: number;
  s: string;
  n: string | null;
  f: number;
  d: string;
  ts: number;
}

// Whole seconds: DateTime has no sub-second part on 18.16.
const BASE_SECONDS = Date.UTC(2024, 1, 29, 23, 59, 58) / 1000;
const FLOATS = [0.1, -1.5e-7, 1e300, 42, -0.5];

function expectedRow(i: number, id: number): Row {
  const ts = BASE_SECONDS + i * 3661;
  const d = new Date(ts * 1000).toISOString().slice(0, 19).replace('T', ' ');
  const n = i % 2 === 0 ? null : `${NASTY[(i + 1) % NASTY.length]}`;
  return { id, s: NASTY[i] ?? '', n, f: FLOATS[i % FLOATS.length] ?? 0, d, ts };
}

const jsonRows = NASTY.map((_, i) => expectedRow(i, i + 1));
const valuesRows = NASTY.map((_, i) => expectedRow(i, VALUES_ID_OFFSET + i + 1));

let client: ClickHouseClient;

async function select<T>(query: ChSql): Promise<T[]> {
  const result = await client.query({ query: query.sql, format: CLICKHOUSE_ROW_FORMAT });
  return result.json<T>();
}

beforeAll(async () => {
  await ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: DATABASE });
  client = createClickHouse({ url: CLICKHOUSE_URL, database: DATABASE, requestTimeoutMs: 10_000 });
  await client.command({ query: chSql`DROP TABLE IF EXISTS ${TABLE}`.sql });
  await client.command({
    query: chSql`CREATE TABLE ${TABLE} (id UInt32, s String, n Nullable(String), f Float64, d DateTime('UTC'))
      ENGINE = MergeTree ORDER BY id`.sql,
  });
});

afterAll(async () => {
  await client?.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(DATABASE)}`.sql });
  await client?.close();
});

describe('ClickHouse 18.16 through @clickhouse/client-web', () => {
  it('pings the live server', async () => {
    const result = await pingClickHouse(client);
    expect(result.ok).toBe(true);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a closed port as down, quickly', async () => {
    const started = performance.now();
    const result = await pingClickHouse(createClickHouse({ url: 'http://127.0.0.1:1' }), 1_500);
    expect(result).toEqual({ ok: false, latencyMs: null });
    expect(performance.now() - started).toBeLessThan(1_600);
  });

  it('is idempotent when ensuring the database', async () => {
    await ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: DATABASE });
    const [row] = await select<{ name: string }>(
      chSql`SELECT name FROM system.databases WHERE name = ${DATABASE}`,
    );
    expect(row).toEqual({ name: DATABASE });
  });

  it('rejects the client default insert format (JSONCompactEachRow) on 18.16', async () => {
    await expect(client.insert({ table: 'nasty', values: [jsonRows[0]] })).rejects.toThrow(/Unknown format/);
  });

  it('round-trips nasty strings inserted as JSONEachRow', async () => {
    const values = jsonRows.map(({ id, s, n, f, ts }) => ({ id, s, n, f, d: ts }));
    await client.insert({ table: 'nasty', values, format: CLICKHOUSE_ROW_FORMAT });
    const rows = await select<Row>(
      chSql`SELECT id, s, n, f, d, toUnixTimestamp(d) AS ts FROM ${TABLE} WHERE id < ${VALUES_ID_OFFSET} ORDER BY id`,
    );
    expect(rows).toEqual(jsonRows);
  });

  it('round-trips nasty strings inserted with INSERT ... VALUES built by chSql', async () => {
    const tuples = valuesRows.map(
      ({ id, s, n, f, ts }) => chSql`(${id}, ${s}, ${n}, ${f}, ${new Date(ts * 1000)})`,
    );
    await client.command({
      query: chSql`INSERT INTO ${TABLE} (id, s, n, f, d) VALUES ${chJoin(tuples)}`.sql,
    });
    const rows = await select<Row>(
      chSql`SELECT id, s, n, f, d, toUnixTimestamp(d) AS ts FROM ${TABLE} WHERE id > ${VALUES_ID_OFFSET} ORDER BY id`,
    );
    expect(rows).toEqual(valuesRows);
  });

  it('finds exactly one row per nasty value with WHERE s = value', async () => {
    expect(new Set(NASTY).size).toBe(NASTY.length);
    for (const [i, value] of NASTY.entries()) {
      const rows = await select<{ id: number }>(
        chSql`SELECT id FROM ${TABLE} WHERE s = ${value} AND id < ${VALUES_ID_OFFSET}`,
      );
      expect(rows, JSON.stringify(value)).toEqual([{ id: i + 1 }]);
    }
  });

  it('matches every value through an array literal and keeps the table intact', async () => {
    const [row] = await select<{ c: string }>(
      chSql`SELECT count() AS c FROM ${TABLE} WHERE has(${NASTY}, s)`,
    );
    // count() is UInt64, which 18.16 quotes in JSON.
    expect(row).toEqual({ c: String(NASTY.length * 2) });
  });

  it('returns literals exactly as sent', async () => {
    const [row] = await select<Record<string, unknown>>(
      chSql`SELECT ${NASTY} AS strings, ${2n ** 64n - 1n} AS big, ${-(2n ** 63n)} AS small, ${true} AS yes,
        ${null} AS nothing, ${1e21} AS huge, 1-${-1} AS two,
        toUnixTimestamp(${new Date('2105-12-31T23:59:59.999Z')}) AS lastSecond`,
    );
    expect(row).toEqual({
      strings: NASTY,
      big: '18446744073709551615',
      small: '-9223372036854775808',
      yes: 1,
      nothing: null,
      huge: 1e21,
      two: 2,
      lastSecond: Date.UTC(2105, 11, 31, 23, 59, 59) / 1000,
    });
  });
});
