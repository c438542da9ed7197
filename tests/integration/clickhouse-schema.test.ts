// One descriptor per log table: a table an older release created (fewer columns) is
// brought up to the schema on first use, against the real ClickHouse 18.16 (which has no
// ADD COLUMN IF NOT EXISTS), with rows from before and after readable alike.
import type { ClickHouseClient } from '@clickhouse/client-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChRow,
  chFlag,
  chInt64,
  chNullable,
  chString,
} from '../../shared/src/logs/analytics/clickhouse-columns';
import {
  type ChLogSchema,
  type ChTableSchema,
  chLogSchema,
} from '../../shared/src/logs/analytics/clickhouse-schema';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { clickHouseLogTable } from '../../shared/src/logs/analytics/clickhouse-table';
import { createClickHouseRequestLogStore } from '../../shared/src/logs/requests/clickhouse-store';
import { requestLogSchema } from '../../shared/src/logs/requests/log-columns';
import {
  CLICKHOUSE_ROW_FORMAT,
  createClickHouse,
  ensureClickHouseDatabase,
} from '../../shared/src/stores/clickhouse';
import { CLICKHOUSE_URL } from '../helpers/env';
import { requestLogRecord } from '../helpers/request-log-record';

const DATABASE = 'sluice_it_ch_schema';
const T0 = Date.UTC(2025, 6, 1, 12, 0, 0, 500);

interface OldEvent {
  id: string;
  createdAt: Date;
  name: string;
  count: number;
}
/** The same log a release later: one field in the middle, one at the end. */
interface NewEvent extends OldEvent {
  note: string | null;
  done: boolean;
}

const oldSchema = chLogSchema<OldEvent>({
  name: 'events',
  label: 'event',
  columns: { name: chString('name'), count: chInt64('count') },
});
const newSchema = chLogSchema<NewEvent>({
  name: 'events',
  label: 'event',
  columns: {
    name: chString('name'),
    note: chNullable(chString('note')),
    count: chInt64('count'),
    done: chFlag('done'),
  },
});

let ch: ClickHouseClient;

async function describeTable(name: string): Promise<{ name: string; type: string }[]> {
  const result = await ch.query({
    query: chSql`DESCRIBE TABLE ${chIdent(DATABASE, name)}`.sql,
    format: CLICKHOUSE_ROW_FORMAT,
  });
  return (await result.json<{ name: string; type: string }>()).map(({ name, type }) => ({ name, type }));
}

function columnsOf(schema: ChTableSchema) {
  return schema.columns.map((column) => ({ name: column.name, type: column.type.sql }));
}

function event(i: number, fields: Partial<NewEvent> = {}): NewEvent {
  const id = `e${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`;
  return {
    id,
    createdAt: new Date(T0 + i * 1000),
    name: `n${i}`,
    count: 2 ** 40 + i,
    note: null,
    done: false,
    ...fields,
  };
}

/** Every row, newest first, through the table as the given release sees it. */
async function all<R extends OldEvent>(schema: ChLogSchema<R>): Promise<R[]> {
  const table = clickHouseLogTable(ch, { database: DATABASE }, schema);
  const { rows } = await table.page<ChRow>(schema.selected, { where: [] }, { offset: 0, limit: 100 });
  return rows.map((row) => schema.fromRow(row));
}

beforeAll(async () => {
  ch = createClickHouse({ url: CLICKHOUSE_URL, database: 'default', requestTimeoutMs: 10_000 });
  await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(DATABASE)}`.sql });
  await ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: DATABASE });
});

afterAll(async () => {
  await ch?.close();
});

describe('a ClickHouse log table from an older release', () => {
  const older = [event(1), event(2)];
  const newer = [event(3, { note: "it's new", done: true }), event(4, { note: null, done: true }), event(5)];

  it('gets the missing columns, in schema order, when first used; concurrent upgrades all succeed', async () => {
    const before = clickHouseLogTable(ch, { database: DATABASE }, oldSchema);
    await before.insert(
      older.map(({ id, createdAt, name, count }) => oldSchema.toRow({ id, createdAt, name, count })),
    );
    expect(await describeTable('events')).toEqual(columnsOf(oldSchema));

    // Three processes of the new release start at once: each reads the columns, sees two
    // missing and adds them; those that lose the race ("already exists") carry on.
    await Promise.all(
      newer.map((record) =>
        clickHouseLogTable(ch, { database: DATABASE }, newSchema).insert([newSchema.toRow(record)]),
      ),
    );
    expect(await describeTable('events')).toEqual(columnsOf(newSchema));
  });

  it('reads rows from before (the new columns at their defaults) and after alike', async () => {
    const expected = [...newer].reverse().concat([event(2), event(1)]);
    expect(await all(newSchema)).toEqual(expected);
  });

  it('lets the older release go on writing and reading (a rolling deploy)', async () => {
    const stillOld = clickHouseLogTable(ch, { database: DATABASE }, oldSchema);
    const late = event(6);
    await stillOld.insert([
      oldSchema.toRow({ id: late.id, createdAt: late.createdAt, name: late.name, count: late.count }),
    ]);
    expect((await all(oldSchema))[0]).toEqual({
      id: late.id,
      createdAt: late.createdAt,
      name: late.name,
      count: late.count,
    });
    expect((await all(newSchema))[0]).toEqual(late);
  });

  it('matches a table the new release creates itself', async () => {
    await ch.command({ query: newSchema.ddl(DATABASE).sql.replace('`events`', '`events_fresh`') });
    expect(await describeTable('events_fresh')).toEqual(await describeTable('events'));
  });
});

describe('the request log', () => {
  it('adds a column a deployed request_logs table lacks, then stores and lists every field', async () => {
    const database = `${DATABASE}_requests`;
    await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(database)}`.sql });
    await ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database });
    // request_logs as a release without client_aborted (the last column) created it.
    const ddl = requestLogSchema.ddl(database).sql;
    const older = ddl.replace(',\n    `client_aborted` UInt8', '');
    expect(older).not.toBe(ddl);
    await ch.command({ query: older });

    const store = createClickHouseRequestLogStore(ch, { database });
    const record = requestLogRecord({
      createdAt: new Date(T0),
      model: 'm',
      statusCode: 499,
      promptTokens: 1,
      totalTokens: 1,
      weightedTokens: 1,
      latencyMs: 5,
      clientAborted: true,
    });
    await store.insert([record]);
    expect(await store.list()).toEqual([record]);
    const columns = await ch.query({
      query: chSql`SELECT name FROM system.columns WHERE database = ${database} AND table = 'request_logs'`
        .sql,
      format: CLICKHOUSE_ROW_FORMAT,
    });
    expect((await columns.json<{ name: string }>()).map((row) => row.name)).toEqual(
      requestLogSchema.columns.map((column) => column.name),
    );
  });
});
