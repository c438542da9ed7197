import { describe, expect, it } from 'vitest';
import { parseStatusMatch, STATUS_MATCH_PATTERN, statusRange } from './status-match';

describe('status matches of the log views', () => {
  it('are one code or a class of codes, as an inclusive range', () => {
    expect(statusRange(429)).toEqual({ min: 429, max: 429 });
    expect(statusRange('2xx')).toEqual({ min: 200, max: 299 });
    expect(statusRange('5xx')).toEqual({ min: 500, max: 599 });
  });

  it('refuses what no log holds', () => {
    for (const bad of [99, 600, 200.5, Number.NaN])
      expect(() => statusRange(bad), String(bad)).toThrow(RangeError);
    expect(() => statusRange('6xx' as never)).toThrow(RangeError);
  });

  it('parses the query parameter the pattern lets through', () => {
    for (const ok of ['100', '429', '599', '1xx', '4xx'])
      expect(STATUS_MATCH_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['99', '600', '4XX', '4x', '42', ' 404', 'ok', '']) {
      expect(STATUS_MATCH_PATTERN.test(bad), bad).toBe(false);
    }
    expect(parseStatusMatch('429')).toBe(429);
    expect(parseStatusMatch('4xx')).toBe('4xx');
  });
});
