import { describe, expect, it } from 'vitest';
import {
  type ChColumn,
  chColumnDefinition,
  chEnum8,
  chFlag,
  chFloat64,
  chInt64,
  chMapped,
  chNullable,
  chString,
  chUInt8,
  chUInt16,
  chUInt32,
  chUInt64,
  chUuid,
} from './clickhouse-columns';

/** What the column sends for `value`, and what it makes of `selected` (18.16's JSON for it). */
function crossing<V>(column: ChColumn<V>, value: V, selected: unknown) {
  return {
    definition: chColumnDefinition(column).sql,
    row: column.toRow(value),
    back: column.fromRow(selected),
  };
}

describe('ClickHouse column kinds', () => {
  it('carry strings, uuids (lowercased on insert) and flags', () => {
    expect(crossing(chString('model'), "it's", "it's")).toEqual({
      definition: '`model` String',
      row: "it's",
      back: "it's",
    });
    const id = 'AB000000-0000-4000-8000-00000000000F';
    expect(crossing(chUuid('id'), id, id.toLowerCase())).toEqual({
      definition: '`id` String',
      row: id.toLowerCase(),
      back: id.toLowerCase(),
    });
    expect(crossing(chFlag('stream'), true, 1)).toEqual({ definition: '`stream` UInt8', row: 1, back: true });
    expect(crossing(chFlag('stream'), false, 0)).toEqual({
      definition: '`stream` UInt8',
      row: 0,
      back: false,
    });
  });

  it('carry numbers; 64-bit integers come back as JSON strings', () => {
    expect(crossing(chUInt8('level'), 30, 30)).toEqual({ definition: '`level` UInt8', row: 30, back: 30 });
    expect(crossing(chUInt16('status_code'), 404, 404).definition).toBe('`status_code` UInt16');
    expect(crossing(chUInt32('latency_ms'), 2 ** 32 - 1, 2 ** 32 - 1)).toEqual({
      definition: '`latency_ms` UInt32',
      row: 2 ** 32 - 1,
      back: 2 ** 32 - 1,
    });
    expect(crossing(chInt64('prompt_tokens'), 2 ** 40 + 1, String(2 ** 40 + 1))).toEqual({
      definition: '`prompt_tokens` Int64',
      row: 2 ** 40 + 1,
      back: 2 ** 40 + 1,
    });
    expect(crossing(chUInt64('created_at_ms'), 1, '1').back).toBe(1);
    expect(crossing(chFloat64('cost_usd'), 0.1, 0.1)).toEqual({
      definition: '`cost_usd` Float64',
      row: 0.1,
      back: 0.1,
    });
  });

  it('wrap any kind in Nullable, null passing both ways', () => {
    const latency = chNullable(chUInt32('upstream_latency_ms'));
    expect(crossing(latency, null, null)).toEqual({
      definition: '`upstream_latency_ms` Nullable(UInt32)',
      row: null,
      back: null,
    });
    expect(crossing(latency, 12, 12).back).toBe(12);
    const tokens = chNullable(chInt64('n'));
    expect(tokens.fromRow('5')).toBe(5);
    const user = chNullable(chUuid('user_id'));
    expect(user.toRow('AB')).toBe('ab');
    expect(user.toRow(null)).toBeNull();
  });

  it('spell an Enum8 with quoted labels and refuse codes outside Int8', () => {
    const status = chEnum8('status', { success: 1, error: 2 });
    expect(crossing(status, 'error', 'error')).toEqual({
      definition: "`status` Enum8('success' = 1, 'error' = 2)",
      row: 'error',
      back: 'error',
    });
    expect(chEnum8('e', { "it's": -128 }).type.sql).toBe("Enum8('it\\'s' = -128)");
    expect(() => chEnum8('e', { big: 128 })).toThrow(RangeError);
    expect(() => chEnum8('e', { half: 1.5 })).toThrow(RangeError);
  });

  it('map a record value to a stored one and back', () => {
    const levels = { INFO: 30, WARN: 40 } as const;
    const level = chMapped(
      chUInt8('level'),
      (name: keyof typeof levels) => levels[name],
      (n) => (n === 40 ? 'WARN' : 'INFO'),
    );
    expect(crossing(level, 'WARN', 40)).toEqual({ definition: '`level` UInt8', row: 40, back: 'WARN' });
    const fields = chMapped(
      chString('fields'),
      (value: Record<string, unknown>) => JSON.stringify(value),
      (text) => JSON.parse(text) as Record<string, unknown>,
    );
    expect(crossing(fields, { a: [1] }, '{"a":[1]}')).toEqual({
      definition: '`fields` String',
      row: '{"a":[1]}',
      back: { a: [1] },
    });
  });

  it('refuse a name that is not a plain identifier where it is declared', () => {
    expect(() => chString('x`; DROP TABLE y')).toThrow(TypeError);
    expect(() => chNullable(chFlag('1st'))).toThrow(TypeError);
  });

  it('type-check the value both ways (checked by tsc)', () => {
    // @ts-expect-error a nullable column does not fit a field that is never null
    const notNull: ChColumn<string> = chNullable(chString('a'));
    // @ts-expect-error a column that never holds null does not fit a nullable field
    const nullable: ChColumn<string | null> = chString('a');
    // @ts-expect-error a string column does not fit a boolean field
    const flag: ChColumn<boolean> = chString('a');
    expect([notNull, nullable, flag].map((c) => c.name)).toEqual(['a', 'a', 'a']);
  });
});
