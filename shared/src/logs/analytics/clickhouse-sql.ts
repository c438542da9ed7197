/**
 * The one audited place where values become ClickHouse SQL text.
 *
 * ClickHouse 18.16 has no server-side query parameters (`{name:Type}` is sent as an unknown
 * `param_*` setting and rejected), so every value is formatted into the query here and nowhere
 * else. Only the literal parts of a `chSql` template are trusted; interpolated values are
 * formatted by type, and anything this module does not know how to format throws.
 *
 * Literal rules below were checked against a real 18.16.1 server (see
 * tests/integration/clickhouse.test.ts): it has no `true`/`false`, no DateTime64, no
 * `\u` escapes in string literals, and its parser rejects subnormal float literals.
 */

const TRUSTED = Symbol('ChSql');

/** SQL text built only by this module; `#sql` makes the type nominal, so a plain object never fits. */
export class ChSql {
  readonly #sql: string;

  /** Not for callers: build fragments with chSql, chIdent or chJoin. */
  constructor(sql: string, key: symbol) {
    if (key !== TRUSTED) throw new TypeError('ChSql: build fragments with chSql, chIdent or chJoin');
    this.#sql = sql;
  }

  get sql(): string {
    return this.#sql;
  }

  toString(): string {
    return this.#sql;
  }
}

export type ChScalar = string | number | bigint | boolean | null | Date;
export type ChValue = ChScalar | ChSql | readonly ChValue[];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

// Escapes the 18.16 lexer accepts inside '...'. Other control characters go out as \xHH, which it
// also accepts; everything else (including all non-ASCII) is sent as raw UTF-8.
const STRING_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  "'": "\\'",
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\0': '\\0',
  '\b': '\\b',
  '\f': '\\f',
};
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const NEEDS_ESCAPE = /[\\'\u0000-\u001f\u007f]/g;
// In a `u` regex a surrogate range matches only unpaired halves, which have no UTF-8 encoding
// and would silently become U+FFFD on the wire.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

// Smallest normal double: 18.16 fails to parse subnormal literals such as 5e-324 (syntax error).
const MIN_NORMAL_FLOAT = 2.2250738585072014e-308;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;
// DateTime is seconds since the epoch; 18.16's date tables end with 2105 and map later
// instants (and anything before 1970) to the zero date, so such values are refused here.
const DATETIME_END_MS = Date.UTC(2106, 0, 1);

/** Builds a query: template parts are SQL, interpolated values are formatted as literals. */
export function chSql(strings: TemplateStringsArray, ...values: readonly ChValue[]): ChSql {
  if (!Array.isArray(strings) || !Array.isArray(strings.raw)) {
    throw new TypeError('chSql must be used as a tagged template');
  }
  let sql = strings[0] ?? '';
  values.forEach((value, i) => {
    sql = glue(glue(sql, formatValue(value)), strings[i + 1] ?? '');
  });
  return new ChSql(sql, TRUSTED);
}

/**
 * A database/table/column name, validated and backtick-quoted (so keywords such as `from`
 * work as names). Several parts are joined with dots: chIdent('db', 'table').
 */
export function chIdent(...parts: readonly string[]): ChSql {
  if (parts.length === 0) throw new TypeError('chIdent needs at least one name');
  for (const part of parts) {
    if (typeof part !== 'string' || !IDENTIFIER.test(part)) {
      throw new TypeError(`chIdent: invalid identifier ${JSON.stringify(part)}`);
    }
  }
  return new ChSql(parts.map((part) => `\`${part}\``).join('.'), TRUSTED);
}

/** Joins fragments; the separator is itself a fragment so no raw string reaches the SQL. */
export function chJoin(fragments: readonly ChSql[], separator: ChSql = chSql`, `): ChSql {
  let sql = '';
  fragments.forEach((fragment, i) => {
    if (!(fragment instanceof ChSql)) throw new TypeError('chJoin: every item must be a ChSql fragment');
    sql = i === 0 ? fragment.sql : glue(glue(sql, separator.sql), fragment.sql);
  });
  return new ChSql(sql, TRUSTED);
}

/** The literal for one value, exactly as chSql would inline it. */
export function chLiteral(value: ChValue): string {
  return formatValue(value);
}

function formatValue(value: unknown): string {
  if (value instanceof ChSql) return value.sql;
  if (value === null) return 'NULL';
  if (value instanceof Date) return formatDateTime(value);
  // Items are separated by ", ", so a negative item can never follow a `-`.
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  switch (typeof value) {
    case 'string':
      return quoteString(value);
    case 'number':
      return formatNumber(value);
    case 'bigint':
      return formatBigint(value);
    case 'boolean':
      // 18.16 has no boolean literals; UInt8 0/1 is what its comparison functions return.
      return value ? '1' : '0';
    default:
      throw new TypeError(`chSql: cannot format ${describe(value)} as a ClickHouse literal`);
  }
}

function quoteString(value: string): string {
  if (LONE_SURROGATE.test(value)) throw new TypeError('chSql: string contains an unpaired UTF-16 surrogate');
  const escaped = value.replace(
    NEEDS_ESCAPE,
    (char) => STRING_ESCAPES[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return `'${escaped}'`;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`chSql: ${value} is not a finite number`);
  if (value !== 0 && Math.abs(value) < MIN_NORMAL_FLOAT) {
    throw new RangeError(`chSql: ${value} is subnormal; ClickHouse 18.16 cannot parse it`);
  }
  // String() gives the shortest round-tripping form ("1e+21", "0.1"); -0 becomes "0".
  return String(value);
}

function formatBigint(value: bigint): string {
  // Wider literals would be parsed as Float64 and silently lose precision.
  if (value < INT64_MIN || value > UINT64_MAX) {
    throw new RangeError(`chSql: ${value} is outside Int64/UInt64`);
  }
  return value.toString();
}

function formatDateTime(value: Date): string {
  const ms = value.getTime();
  if (!(ms >= 0 && ms < DATETIME_END_MS)) {
    throw new RangeError(
      `chSql: ${String(value)} is outside the DateTime range 1970-01-01..2105-12-31 (UTC)`,
    );
  }
  // 18.16 has no DateTime64: DateTime holds whole seconds, so milliseconds are dropped here
  // explicitly (toDateTime would reject a fractional part in the string).
  const seconds = new Date(ms - (ms % 1000)).toISOString().slice(0, 19).replace('T', ' ');
  return `toDateTime('${seconds}', 'UTC')`;
}

/** Concatenates SQL so that a trailing `-` and a leading `-` never merge into a `--` comment. */
function glue(left: string, right: string): string {
  return left.endsWith('-') && right.startsWith('-') ? `${left} ${right}` : left + right;
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'object') return value.constructor?.name ?? 'object';
  return typeof value;
}
