import { describe, expect, it } from 'vitest';
import { parseWrkResult } from './wrk';

describe('wrk result', () => {
  it('reads the BENCH_RESULT line among wrk’s own output, latencies in ms', () => {
    const output = [
      'Running 5s test @ http://127.0.0.1:40000/v1/chat/completions',
      '  1 threads and 32 connections',
      '  20000 requests in 5.00s, 10.00MB read',
      'BENCH_RESULT requests=20000 seconds=5.002 p50_us=1500 p90_us=2100 p95_us=3000 p99_us=4321 max_us=20000 mean_us=1600.5 ' +
        'connect_errors=0 read_errors=1 write_errors=0 timeouts=2 non2xx=3 bytes=10485760',
      '',
    ].join('\n');
    const result = parseWrkResult(output);
    expect(result).toMatchObject({
      requests: 20000,
      seconds: 5.002,
      p50Ms: 1.5,
      p90Ms: 2.1,
      p95Ms: 3,
      p99Ms: 4.321,
      maxMs: 20,
      meanMs: 1.6005,
      errors: 3,
      non2xx: 3,
      bytes: 10485760,
    });
    expect(result.requestsPerSecond).toBeCloseTo(3998.4, 1);
  });

  it('says so when wrk printed no result, or a field is missing', () => {
    expect(() => parseWrkResult('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(
      /no BENCH_RESULT/,
    );
    expect(() => parseWrkResult('BENCH_RESULT requests=1 seconds=1')).toThrow(/without p50_us/);
  });
});
