import { describe, expect, it } from 'vitest';
import { prefixTsQuery } from './audit-search-repo';

describe('prefixTsQuery', () => {
  it('turns each word into a quoted prefix term', () => {
    expect(prefixTsQuery('  Ada@Exa  login ')).toBe("'ada@exa':* & 'login':*");
  });

  it('keeps tsquery operators, quotes and backslashes literal', () => {
    expect(prefixTsQuery("o'brien a&b !c:* \\")).toBe("'o''brien':* & 'a&b':* & '!c:*':* & '\\\\':*");
  });

  it('is null for blank input', () => {
    expect(prefixTsQuery(' \t\n')).toBeNull();
  });
});
