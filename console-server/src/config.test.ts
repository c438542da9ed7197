import { describe, expect, it } from 'vitest';
import { parseConsoleEnv } from './config';

const BASE = {
  DATABASE_URL: 'postgres://app@db:5432/sluice',
  SLUICE_JWT_SECRET: 'j'.repeat(40),
  SLUICE_ENCRYPTION_KEY: 'k'.repeat(43),
};
const UPSTASH = { UPSTASH_REDIS_REST_URL: 'https://eu1.upstash.io', UPSTASH_REDIS_REST_TOKEN: 't' };

describe('the console’s Redis configuration', () => {
  it('takes REDIS_URL alone, or Upstash’s URL and token alone', () => {
    expect(parseConsoleEnv({ ...BASE, REDIS_URL: 'rediss://:pw@cache:6380/2' }).REDIS_URL).toBe(
      'rediss://:pw@cache:6380/2',
    );
    const upstash = parseConsoleEnv({ ...BASE, ...UPSTASH, REDIS_URL: '' });
    expect(upstash).toMatchObject({ ...UPSTASH, REDIS_URL: undefined });
  });

  it('refuses neither, half of Upstash, or a REDIS_URL that is not one, naming the variable', () => {
    expect(() => parseConsoleEnv(BASE)).toThrow(/REDIS_URL: set REDIS_URL, or UPSTASH_REDIS_REST_URL/);
    expect(() =>
      parseConsoleEnv({ ...BASE, UPSTASH_REDIS_REST_URL: UPSTASH.UPSTASH_REDIS_REST_URL }),
    ).toThrow(/REDIS_URL: set REDIS_URL/);
    expect(() => parseConsoleEnv({ ...BASE, REDIS_URL: 'http://cache:6379' })).toThrow(
      /REDIS_URL: REDIS_URL must start with redis:\/\/ or rediss:\/\//,
    );
  });
});
