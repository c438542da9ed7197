import { describe, expect, it } from 'vitest';
import { scaleOptions } from './scale-options';

describe('bench:scale options', () => {
  it('runs both suites at their full sizes by default, each with its own number of runs', () => {
    const options = scaleOptions([]);
    expect(options.suites).toEqual(['analytics', 'platform']);
    expect(options.analytics).toMatchObject({ rows: 20_000_000, runs: 10, database: 'sluice_bench_scale' });
    expect(options.platform).toMatchObject({
      runs: 20,
      database: 'sluice_bench_platform',
      gatewayProcesses: 1,
      small: true,
      sizes: {
        users: 2_000,
        keys: 100_000,
        ownerKeys: 2_001,
        models: 1_000,
        routesPerModel: 5,
        tools: 1_000,
      },
    });
  });

  it('takes one suite, shared options for both and each suite’s own', () => {
    const options = scaleOptions([
      '--suite',
      'platform',
      '--runs',
      '3',
      '--reseed',
      '--keys',
      '5000',
      '--skip-small',
    ]);
    expect(options.suites).toEqual(['platform']);
    expect(options.platform).toMatchObject({ runs: 3, reseed: true, small: false, sizes: { keys: 5_000 } });
    expect(options.analytics).toMatchObject({ runs: 3, reseed: true });
  });

  it('names what is wrong', () => {
    expect(() => scaleOptions(['--suite', 'nope'])).toThrow(/--suite/);
    expect(() => scaleOptions(['--runs', '0'])).toThrow(/--runs/);
    expect(() => scaleOptions(['--platform-database', 'Drop Table'])).toThrow(/--platform-database/);
    expect(() => scaleOptions(['--bogus'])).toThrow(/bogus/);
  });

  it('refuses platform sizes without a fresh key and model for every run', () => {
    expect(() => scaleOptions(['--suite', 'platform', '--keys', '3000'])).toThrow(/--keys/);
    expect(() => scaleOptions(['--suite', 'platform', '--models', '10'])).toThrow(/--models/);
    // The analytics suite alone does not care.
    expect(scaleOptions(['--suite', 'analytics', '--keys', '3000']).suites).toEqual(['analytics']);
  });
});
