import { type ChSql, chIdent, chJoin, chSql } from './clickhouse-sql';

/**
 * Column kinds for the ClickHouse (18.16) log tables: each knows its ClickHouse type, the value
 * JSONEachRow sends for a record value on insert, and the record value of what a select returns.
 * A log's schema (clickhouse-schema.ts) is one of these per record field.
 */

/** What JSONEachRow sends for one column on insert. */
export type ChRowValue = string | number | null;

/** A row by column name: what an insert sends, or what 18.16 returns for a select. */
export type ChRow = Record<string, unknown>;

/**
 * One column. The conversions are properties, not methods: method parameters are bivariant,
 * so only this way does a column of another value type fail to fit a record field.
 */
export interface ChColumn<V> {
  readonly name: string;
  /** Built from literal text only (and chSql-quoted enum labels); system.columns spells it so. */
  readonly type: ChSql;
  readonly toRow: (value: V) => ChRowValue;
  /**
   * Back from what 18.16 returns for the type. The table is ours, so the value is converted,
   * not validated (as the hand-written row types trusted it before).
   */
  readonly fromRow: (value: unknown) => V;
}

function column<V>(
  name: string,
  type: ChSql,
  toRow: (value: V) => ChRowValue,
  fromRow: (value: unknown) => V,
): ChColumn<V> {
  chIdent(name); // a bad name fails where the schema is declared, not at the first query
  return { name, type, toRow, fromRow };
}

/** String; T narrows it to a union the writer guarantees (e.g. the logged endpoints). */
export function chString<T extends string = string>(name: string): ChColumn<T> {
  return column<T>(
    name,
    chSql`String`,
    (value) => value,
    (value) => value as T,
  );
}

/**
 * A UUID as String, lowercased on insert: Postgres returns uuids so, and its uuid order is the
 * order of the lowercase text, so both adapters list and break ties alike.
 */
export function chUuid(name: string): ChColumn<string> {
  return column<string>(
    name,
    chSql`String`,
    (value) => value.toLowerCase(),
    (value) => value as string,
  );
}

/** A boolean as UInt8 0/1: 18.16 has no Bool type. */
export function chFlag(name: string): ChColumn<boolean> {
  return column<boolean>(
    name,
    chSql`UInt8`,
    (value) => (value ? 1 : 0),
    (value) => value === 1,
  );
}

// Up to 32 bits 18.16 returns JSON numbers; T narrows to a union the writer guarantees.
function smallInt<T extends number>(name: string, type: ChSql): ChColumn<T> {
  return column<T>(
    name,
    type,
    (value) => value,
    (value) => value as T,
  );
}

export function chUInt8<T extends number = number>(name: string): ChColumn<T> {
  return smallInt<T>(name, chSql`UInt8`);
}

export function chUInt16<T extends number = number>(name: string): ChColumn<T> {
  return smallInt<T>(name, chSql`UInt16`);
}

export function chUInt32<T extends number = number>(name: string): ChColumn<T> {
  return smallInt<T>(name, chSql`UInt32`);
}

/** Int64: 18.16 returns 64-bit integers as JSON strings (output_format_json_quote_64bit_integers). */
export function chInt64(name: string): ChColumn<number> {
  return column<number>(name, chSql`Int64`, (value) => value, Number);
}

/** UInt64, returned as a JSON string like Int64. */
export function chUInt64(name: string): ChColumn<number> {
  return column<number>(name, chSql`UInt64`, (value) => value, Number);
}

export function chFloat64(name: string): ChColumn<number> {
  return column<number>(
    name,
    chSql`Float64`,
    (value) => value,
    (value) => value as number,
  );
}

/**
 * Enum8 of the given labels and codes: a value outside them is refused by ClickHouse itself,
 * like a Postgres check constraint. JSONEachRow carries the label both ways.
 */
export function chEnum8<T extends string>(name: string, codes: Readonly<Record<T, number>>): ChColumn<T> {
  const entries = Object.entries<number>(codes);
  for (const [label, code] of entries) {
    if (!Number.isInteger(code) || code < -128 || code > 127) {
      throw new RangeError(`chEnum8 ${name}: code ${code} of ${label} is outside Int8`);
    }
  }
  const values = chJoin(entries.map(([label, code]) => chSql`${label} = ${code}`));
  return column<T>(
    name,
    chSql`Enum8(${values})`,
    (value) => value,
    (value) => value as T,
  );
}

/** Nullable(inner): null passes both ways, anything else goes through the inner column. */
export function chNullable<V>(inner: ChColumn<V>): ChColumn<V | null> {
  return column<V | null>(
    inner.name,
    chSql`Nullable(${inner.type})`,
    (value) => (value === null ? null : inner.toRow(value)),
    (value) => (value === null ? null : inner.fromRow(value)),
  );
}

/** A record value stored as another (e.g. a level name as its number, an object as JSON text). */
export function chMapped<V, W>(
  stored: ChColumn<W>,
  toStored: (value: V) => W,
  fromStored: (value: W) => V,
): ChColumn<V> {
  return column<V>(
    stored.name,
    stored.type,
    (value) => stored.toRow(toStored(value)),
    (value) => fromStored(stored.fromRow(value)),
  );
}

/** A column's name and type, without its conversions: what a table's DDL and upgrade need. */
export type ChColumnType = Pick<ChColumn<never>, 'name' | 'type'>;

/** The column's definition as CREATE TABLE and ALTER TABLE … ADD COLUMN take it. */
export function chColumnDefinition(of: ChColumnType): ChSql {
  return chSql`${chIdent(of.name)} ${of.type}`;
}
