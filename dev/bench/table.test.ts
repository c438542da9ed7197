import { describe, expect, it } from 'vitest';
import { formatTable, num } from './table';

describe('report tables', () => {
  it('aligns the label column left and figures right', () => {
    expect(
      formatTable([
        ['', 'json', 'stream'],
        ['throughput (req/s)', '4,123', '987'],
        ['  p99 (ms)', '12.3', '1.05'],
      ]),
    ).toBe(
      [
        '                     json  stream',
        'throughput (req/s)  4,123     987',
        '  p99 (ms)           12.3    1.05',
      ].join('\n'),
    );
  });

  it('prints figures with digits that matter', () => {
    expect([num(12345.6), num(123.4), num(12.34), num(1.234), num(0.1234), num(0), num(Number.NaN)]).toEqual([
      '12,346',
      '123',
      '12.3',
      '1.23',
      '0.123',
      '0',
      '-',
    ]);
  });
});
