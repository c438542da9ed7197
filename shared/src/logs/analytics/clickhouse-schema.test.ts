import { describe, expect, it } from 'vitest';
import { chEnum8, chFlag, chInt64, chNullable, chString, chUuid } from './clickhouse-columns';
import { chLogSchema, instantColumns } from './clickhouse-schema';

interface CallRecord {
  id: string;
  createdAt: Date;
  userId: string | null;
  tokens: number;
  stream: boolean;
  status: 'ok' | 'failed';
}

const calls = chLogSchema<CallRecord>({
  name: 'calls',
  label: 'call',
  columns: {
    userId: chNullable(chString('user_id')),
    tokens: chInt64('tokens'),
    stream: chFlag('stream'),
    status: chEnum8('status', { ok: 1, failed: 2 }),
  },
});

const record: CallRecord = {
  id: '6f1c3a7e-5b7e-4f4e-9a51-2c1f0f6b9d10',
  createdAt: new Date(Date.UTC(2025, 0, 31, 12, 0, 1, 234)),
  userId: null,
  tokens: 2 ** 40 + 1,
  stream: true,
  status: 'failed',
};

describe('ClickHouse log schema', () => {
  it('writes the DDL: id and both instants first, then the columns in declared order', () => {
    expect(calls.ddl('sluice').sql).toBe(`CREATE TABLE IF NOT EXISTS \`sluice\`.\`calls\` (
    \`id\` String,
    \`created_at\` DateTime('UTC'),
    \`created_at_ms\` UInt64,
    \`user_id\` Nullable(String),
    \`tokens\` Int64,
    \`stream\` UInt8,
    \`status\` Enum8('ok' = 1, 'failed' = 2)
  ) ENGINE = MergeTree() PARTITION BY toYYYYMMDD(created_at) ORDER BY (created_at, id)`);
    expect(() => calls.ddl('x`; DROP TABLE y')).toThrow(TypeError);
    expect(calls.columns.map((column) => column.name)).toEqual([
      'id',
      'created_at',
      'created_at_ms',
      'user_id',
      'tokens',
      'stream',
      'status',
    ]);
  });

  it('selects every column but created_at (created_at_ms holds its seconds exactly)', () => {
    expect(calls.selected.sql).toBe('`id`, `created_at_ms`, `user_id`, `tokens`, `stream`, `status`');
  });

  it('maps a record to a JSONEachRow row and a selected row (64-bit as strings) back', () => {
    const row = calls.toRow(record);
    expect(row).toEqual({
      id: record.id,
      created_at: Math.floor(record.createdAt.getTime() / 1000),
      created_at_ms: record.createdAt.getTime(),
      user_id: null,
      tokens: 2 ** 40 + 1,
      stream: 1,
      status: 'failed',
    });
    const { created_at: _, ...selected } = row;
    const back = calls.fromRow({
      ...selected,
      created_at_ms: String(row.created_at_ms),
      tokens: String(row.tokens),
    });
    expect(back).toEqual(record);
  });

  it('refuses instants DateTime cannot hold, naming the record', () => {
    expect(() => calls.toRow({ ...record, createdAt: new Date(-1) })).toThrow(
      `call ${record.id}: createdAt is outside 1970-01-01..2105-12-31`,
    );
    expect(() => instantColumns(new Date(Number.NaN), 'x')).toThrow(RangeError);
    expect(() => instantColumns(new Date(Date.UTC(2106, 0, 1)), 'x')).toThrow(RangeError);
    expect(instantColumns(new Date(Date.UTC(2105, 11, 31, 23, 59, 59, 999)), 'x').created_at_ms).toBe(
      Date.UTC(2106, 0, 1) - 1,
    );
  });

  it('takes another id column (here lowercased)', () => {
    const lowered = chLogSchema<{ id: string; createdAt: Date }>({
      name: 't',
      label: 't',
      id: chUuid('id'),
      columns: {},
    });
    expect(lowered.toRow({ id: 'AB', createdAt: new Date(0) })).toEqual({
      id: 'ab',
      created_at: 0,
      created_at_ms: 0,
    });
  });

  it('refuses a column name declared twice', () => {
    expect(() =>
      chLogSchema<{ id: string; createdAt: Date; aB: string; a_b: string }>({
        name: 't',
        label: 't',
        columns: { aB: chString('a_b'), a_b: chString('a_b') },
      }),
    ).toThrow('t: column a_b is declared twice');
    expect(() =>
      chLogSchema<{ id: string; createdAt: Date; at: boolean }>({
        name: 't',
        label: 't',
        columns: { at: chFlag('created_at') },
      }),
    ).toThrow(TypeError);
  });

  it('names each column as its field in snake_case, as the API view does', () => {
    expect(() =>
      chLogSchema<{ id: string; createdAt: Date; userId: string }>({
        name: 't',
        label: 't',
        columns: { userId: chString('owner') },
      }),
    ).toThrow('t: column owner of userId is not named user_id');
    expect(calls.viewFields).toEqual(['id', 'created_at', 'user_id', 'tokens', 'stream', 'status']);
    expect(calls.toView(record)).toEqual({
      id: record.id,
      created_at: '2025-01-31T12:00:01.234Z',
      user_id: null,
      tokens: 2 ** 40 + 1,
      stream: true,
      status: 'failed',
    });
  });

  it('needs one column of the right kind per field (checked by tsc)', () => {
    const spec = { name: 't', label: 't' };
    type R = { id: string; createdAt: Date; a: string; b: boolean };
    // @ts-expect-error b is missing
    chLogSchema<R>({ ...spec, columns: { a: chString('a') } });
    // @ts-expect-error c is no field of R
    chLogSchema<R>({ ...spec, columns: { a: chString('a'), b: chFlag('b'), c: chString('c') } });
    // @ts-expect-error b is a boolean, not a string
    chLogSchema<R>({ ...spec, columns: { a: chString('a'), b: chString('b') } });
    // @ts-expect-error without the record type nothing would be checked, so no column fits
    chLogSchema({ ...spec, columns: { a: chString('a') } });
    expect(chLogSchema<R>({ ...spec, columns: { a: chString('a'), b: chFlag('b') } }).name).toBe('t');
  });
});
