import {
  type ChColumn,
  type ChColumnType,
  type ChRow,
  chColumnDefinition,
  chString,
  chUInt64,
} from './clickhouse-columns';
import { type ChSql, chIdent, chJoin, chSql } from './clickhouse-sql';

/**
 * One log described once: a column per record field, from which the ClickHouse DDL, the insert
 * rows, the record of a selected row, the select list and the console API's view all follow.
 * Adding a field is one line here (plus the record type and the view's OpenAPI schema, which a
 * test holds to toView); tables created before get the column on first use (clickhouse-table.ts).
 */

/** What every log record has, and every log table starts with. */
export interface ChLogRecord {
  id: string;
  createdAt: Date;
}

/** Exactly one column per record field but id and createdAt: a missing, extra or mistyped one fails to compile. */
export type ChColumns<R extends ChLogRecord> = {
  readonly [K in Exclude<keyof R, keyof ChLogRecord>]-?: ChColumn<R[K]>;
};

export interface ChLogSchemaSpec<R extends ChLogRecord> {
  /** The table name (qualified with the database where used). */
  name: string;
  /** Names a record in errors, e.g. "request log". */
  label: string;
  /** The id column: String as given unless the log normalises ids (chUuid). */
  id?: ChColumn<string>;
  columns: ChColumns<R>;
}

/** userId → user_id: how a record field is named in its column and in the API view. */
export type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}`
  : S;

export function snakeCase(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A record as the console API shows it: snake_case names, created_at an ISO 8601 instant. */
export type LogView<R extends ChLogRecord> = { id: string; created_at: string } & {
  [K in Exclude<keyof R, keyof ChLogRecord> as SnakeCase<K & string>]: R[K];
};

/** What the generic table needs to create a table and bring an older one up to date. */
export interface ChTableSchema {
  readonly name: string;
  /** Every column in table order. */
  readonly columns: readonly ChColumnType[];
  ddl(database: string): ChSql;
}

export interface ChLogSchema<R extends ChLogRecord> extends ChTableSchema {
  /** What pages read: every column but created_at, whose seconds created_at_ms holds exactly. */
  readonly selected: ChSql;
  /** The JSONEachRow insert row; throws RangeError for an instant DateTime cannot hold. */
  toRow(record: R): ChRow;
  fromRow(row: ChRow): R;
  /** The API view of a record (every column named as its field, snake_case). */
  toView(record: R): LogView<R>;
  /** The view's field names, in table order (what the OpenAPI schema must list). */
  readonly viewFields: readonly string[];
}

// DateTime is unsigned seconds; 18.16 maps instants outside 1970..2105 to the zero date.
const DATETIME_END_MS = Date.UTC(2106, 0, 1);

/** created_at (Unix seconds, what JSONEachRow accepts for DateTime on 18.16) and the exact ms. */
export function instantColumns(createdAt: Date, what: string): { created_at: number; created_at_ms: number } {
  const ms = createdAt.getTime();
  if (!(ms >= 0 && ms < DATETIME_END_MS)) {
    throw new RangeError(`${what}: createdAt is outside 1970-01-01..2105-12-31`);
  }
  return { created_at: Math.floor(ms / 1000), created_at_ms: ms };
}

// DateTime holds whole seconds on 18.16 (no DateTime64): created_at partitions and orders the
// table, created_at_ms keeps the exact instant. Neither is a record field, so no conversions.
const CREATED_AT: ChColumnType = { name: 'created_at', type: chSql`DateTime('UTC')` };
const CREATED_AT_MS = chUInt64('created_at_ms');

/**
 * Partitioned by day: retention (retention/clickhouse.ts) drops whole days, as 18.16 has no TTL.
 * R must be given: inferred from the columns it would check nothing, so it is never inferred
 * (NoInfer) and defaults to never, which no column fits.
 */
export function chLogSchema<R extends ChLogRecord = never>(
  spec: ChLogSchemaSpec<NoInfer<R>>,
): ChLogSchema<R> {
  const id = spec.id ?? chString('id');
  // Safe by ChColumns: each column converts exactly its own field's value.
  const fields = Object.entries(spec.columns) as [keyof R & string, ChColumn<R[keyof R]>][];
  const columns: readonly ChColumnType[] = [id, CREATED_AT, CREATED_AT_MS, ...fields.map(([, c]) => c)];
  // The view is named by the record's fields: a column named otherwise would split the two.
  for (const [field, column] of fields) {
    if (column.name !== snakeCase(field)) {
      throw new TypeError(`${spec.name}: column ${column.name} of ${field} is not named ${snakeCase(field)}`);
    }
  }
  const names = columns.map((c) => c.name);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) throw new TypeError(`${spec.name}: column ${duplicate} is declared twice`);
  return {
    name: spec.name,
    columns,
    ddl: (database) => chSql`CREATE TABLE IF NOT EXISTS ${chIdent(database, spec.name)} (
    ${chJoin(columns.map(chColumnDefinition), chSql`,\n    `)}
  ) ENGINE = MergeTree() PARTITION BY toYYYYMMDD(created_at) ORDER BY (created_at, id)`,
    selected: chJoin(names.filter((name) => name !== CREATED_AT.name).map((name) => chIdent(name))),
    toRow(record) {
      const row: ChRow = {
        [id.name]: id.toRow(record.id),
        ...instantColumns(record.createdAt, `${spec.label} ${record.id}`),
      };
      for (const [field, column] of fields) row[column.name] = column.toRow(record[field]);
      return row;
    },
    fromRow(row) {
      const record: Record<string, unknown> = {
        id: id.fromRow(row[id.name]),
        createdAt: new Date(CREATED_AT_MS.fromRow(row[CREATED_AT_MS.name])),
      };
      for (const [field, column] of fields) record[field] = column.fromRow(row[column.name]);
      // Every field of R is set: id and createdAt above, the rest by ChColumns.
      return record as R;
    },
    toView(record) {
      const view: Record<string, unknown> = { id: record.id, created_at: record.createdAt.toISOString() };
      for (const [field, column] of fields) view[column.name] = record[field];
      // Every key of LogView<R> is set: the columns are named snakeCase(field), checked above.
      return view as LogView<R>;
    },
    viewFields: [id.name, CREATED_AT.name, ...fields.map(([, c]) => c.name)],
  };
}
