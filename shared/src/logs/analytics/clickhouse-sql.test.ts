import { describe, expect, it } from 'vitest';
import { ChSql, type ChValue, chIdent, chJoin, chLiteral, chSql } from './clickhouse-sql';

describe('chSql strings', () => {
  it.each([
    ['plain', 'hello', "'hello'"],
    ['empty', '', "''"],
    ['single quote', "it's", "'it\\'s'"],
    ['backslash', 'a\\b', "'a\\\\b'"],
    ['newline and CR', 'a\nb\r\n', "'a\\nb\\r\\n'"],
    ['tab', 'a\tb', "'a\\tb'"],
    ['NUL', 'a\u0000b', "'a\\0b'"],
    ['backspace and form feed', '\b\f', "'\\b\\f'"],
    ['other control characters as \\xHH', '\u0001\u0007\u000b\u001f\u007f', "'\\x01\\x07\\x0b\\x1f\\x7f'"],
    ['unicode passes through', 'é中文 ü \u2028', "'é中文 ü \u2028'"],
    ['emoji passes through', '😀👍🏽 👨‍👩‍👧', "'😀👍🏽 👨‍👩‍👧'"],
    ['double quotes and backticks are inert', '"x" `y`', '\'"x" `y`\''],
  ])('%s', (_name, input, expected) => {
    expect(chSql`SELECT ${input}`.sql).toBe(`SELECT ${expected}`);
  });

  it('keeps an injection attempt inside one literal', () => {
    expect(chSql`SELECT * FROM t WHERE s = ${"'; DROP TABLE x; --"}`.sql).toBe(
      "SELECT * FROM t WHERE s = '\\'; DROP TABLE x; --'",
    );
  });

  it('escapes a backslash-quote so the quote cannot close the literal', () => {
    expect(chLiteral("\\'")).toBe("'\\\\\\''");
    expect(chLiteral("\\\\'; SELECT 1; --")).toBe("'\\\\\\\\\\'; SELECT 1; --'");
  });

  it('leaves no unescaped quote in any literal', () => {
    for (const s of ["'", "''", "\\'", "a\\\\'b", "'\\"]) {
      const body = chLiteral(s).slice(1, -1);
      // After removing escape pairs, no quote or lone backslash may remain.
      expect(body.replace(/\\./g, '')).not.toMatch(/['\\]/);
    }
  });

  it('refuses unpaired surrogates, which have no UTF-8 encoding', () => {
    expect(() => chLiteral('a\uD800b')).toThrow(/surrogate/);
    expect(() => chLiteral('\uDC00')).toThrow(/surrogate/);
  });
});

describe('chSql numbers and other scalars', () => {
  it('formats finite numbers', () => {
    expect(chSql`SELECT ${1}, ${-2.5}, ${0.1}, ${1e21}, ${-0}`.sql).toBe('SELECT 1, -2.5, 0.1, 1e+21, 0');
  });

  it.each([NaN, Infinity, -Infinity])('rejects %s', (n) => {
    expect(() => chLiteral(n)).toThrow(RangeError);
  });

  it('rejects subnormal floats, which 18.16 cannot parse', () => {
    expect(() => chLiteral(5e-324)).toThrow(/subnormal/);
    expect(chLiteral(2.2250738585072014e-308)).toBe('2.2250738585072014e-308');
  });

  it('never lets a negative value form a -- comment', () => {
    expect(chSql`SELECT 1-${-1}`.sql).toBe('SELECT 1- -1');
    expect(chSql`SELECT 1-${-1n}`.sql).toBe('SELECT 1- -1');
    expect(chSql`SELECT 1-${chSql`${-1}`}`.sql).toBe('SELECT 1- -1');
  });

  it('formats bigint within Int64/UInt64 and rejects wider values', () => {
    expect(chSql`SELECT ${2n ** 64n - 1n}, ${-(2n ** 63n)}`.sql).toBe(
      'SELECT 18446744073709551615, -9223372036854775808',
    );
    expect(() => chLiteral(2n ** 64n)).toThrow(RangeError);
    expect(() => chLiteral(-(2n ** 63n) - 1n)).toThrow(RangeError);
  });

  it('formats booleans as 1/0 and null as NULL', () => {
    expect(chSql`SELECT ${true}, ${false}, ${null}`.sql).toBe('SELECT 1, 0, NULL');
  });

  it.each([
    ['undefined', undefined],
    ['object', { a: 1 }],
    ['function', () => 1],
    ['symbol', Symbol('x')],
    ['forged fragment', { sql: '1; DROP TABLE x' }],
  ])('rejects %s', (_name, value) => {
    expect(() => chSql`SELECT ${value as unknown as ChValue}`).toThrow(TypeError);
  });
});

describe('chSql dates', () => {
  it('formats a Date as UTC DateTime, dropping milliseconds', () => {
    expect(chLiteral(new Date('2024-02-29T23:59:58.999Z'))).toBe("toDateTime('2024-02-29 23:59:58', 'UTC')");
    expect(chLiteral(new Date(0))).toBe("toDateTime('1970-01-01 00:00:00', 'UTC')");
    expect(chLiteral(new Date('2105-12-31T23:59:59Z'))).toBe("toDateTime('2105-12-31 23:59:59', 'UTC')");
  });

  it.each([
    ['invalid', new Date('nope')],
    ['before 1970', new Date('1969-12-31T23:59:59Z')],
    ['after 2105', new Date('2106-01-01T00:00:00Z')],
  ])('rejects %s dates', (_name, date) => {
    expect(() => chLiteral(date)).toThrow(RangeError);
  });
});

describe('chSql arrays and fragments', () => {
  it('formats arrays, nested arrays and empty arrays', () => {
    expect(chSql`SELECT ${['a', "b'"]}, ${[1, -2]}, ${[[1], []]}, ${[null, true]}`.sql).toBe(
      "SELECT ['a', 'b\\''], [1, -2], [[1], []], [NULL, 1]",
    );
  });

  it('rejects unsupported array items', () => {
    expect(() => chLiteral([1, undefined] as unknown as ChValue)).toThrow(TypeError);
  });

  it('inlines fragments instead of escaping them', () => {
    const where = chSql`s = ${"x'"}`;
    expect(chSql`SELECT 1 WHERE ${where}`.sql).toBe("SELECT 1 WHERE s = 'x\\''");
    expect(chSql`SELECT ${[chSql`now()`]}`.sql).toBe('SELECT [now()]');
  });

  it('joins fragments with a default or given separator', () => {
    const parts = [chSql`a = ${1}`, chSql`b = ${'2'}`];
    expect(chJoin(parts).sql).toBe("a = 1, b = '2'");
    expect(chJoin(parts, chSql` AND `).sql).toBe("a = 1 AND b = '2'");
    expect(chJoin([]).sql).toBe('');
  });

  it('rejects non-fragments in chJoin and non-template calls of chSql', () => {
    expect(() => chJoin(['1 = 1' as unknown as ChSql])).toThrow(TypeError);
    expect(() => chSql(['SELECT 1'] as unknown as TemplateStringsArray)).toThrow(TypeError);
  });

  it('cannot be constructed from outside the module', () => {
    expect(() => new ChSql('DROP TABLE x', Symbol('ChSql'))).toThrow(TypeError);
  });

  it('stringifies to its SQL', () => {
    expect(String(chSql`SELECT ${1}`)).toBe('SELECT 1');
  });
});

describe('chIdent', () => {
  it('backtick-quotes valid names and joins parts with dots', () => {
    expect(chIdent('events').sql).toBe('`events`');
    expect(chIdent('sluice_db', 'from').sql).toBe('`sluice_db`.`from`');
    expect(chSql`SELECT ${chIdent('_c1')} FROM ${chIdent('db', 't')}`.sql).toBe('SELECT `_c1` FROM `db`.`t`');
  });

  it.each([
    '',
    '1abc',
    'a-b',
    'a.b',
    'a b',
    'a`b',
    "a'b",
    'x; DROP TABLE y',
    'é',
    'a\u0000',
  ])('rejects %j', (name) => {
    expect(() => chIdent(name)).toThrow(TypeError);
  });

  it('rejects no parts and non-strings', () => {
    expect(() => chIdent()).toThrow(TypeError);
    expect(() => chIdent(1 as unknown as string)).toThrow(TypeError);
  });
});
