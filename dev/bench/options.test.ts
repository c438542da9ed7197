import { describe, expect, it } from 'vitest';
import { benchOptions, OptionsError } from './options';

const NOW = new Date('2026-05-01T12:34:56.789Z');

describe('bench options', () => {
  it('defaults to the self-host stack, the team bench’s load, no soak', () => {
    const options = benchOptions({}, [], NOW);
    expect(options).toMatchObject({
      mode: 'serve',
      modes: ['json', 'stream'],
      connections: 32,
      seconds: 5,
      rate: 200,
      soakSeconds: null,
      soakRate: null,
      redisUrl: 'redis://127.0.0.1:6379/8',
      clickhouseUrl: 'http://127.0.0.1:8123',
    });
    expect(options.databaseUrl).toMatch(/\/sluice_bench_npm$/);
    expect(options.resultsDir).toMatch(/\.sluice\/bench\/2026-05-01T12-34-56$/);
  });

  it('soaks 600 s on --soak, or as long as BENCH_SOAK says, at BENCH_SOAK_RATE when given', () => {
    expect(benchOptions({}, ['--soak'], NOW).soakSeconds).toBe(600);
    expect(benchOptions({ BENCH_SOAK: '60', BENCH_SOAK_RATE: '500' }, [], NOW)).toMatchObject({
      soakSeconds: 60,
      soakRate: 500,
    });
  });

  it('refuses what it cannot use', () => {
    expect(() => benchOptions({ BENCH_MODE: 'dev' }, [], NOW)).toThrow(OptionsError);
    expect(() => benchOptions({ BENCH_CONNECTIONS: 'many' }, [], NOW)).toThrow(/BENCH_CONNECTIONS/);
    expect(() => benchOptions({ BENCH_MODES: 'json,grpc' }, [], NOW)).toThrow(/grpc/);
    expect(benchOptions({ BENCH_CLICKHOUSE_URL: 'none', BENCH_MODE: 'start' }, [], NOW)).toMatchObject({
      clickhouseUrl: null,
      mode: 'start',
    });
  });
});
