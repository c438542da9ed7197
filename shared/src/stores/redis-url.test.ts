import { describe, expect, it } from 'vitest';
import { parseRedisUrl } from './redis-url';

describe('REDIS_URL', () => {
  it('reads host, port, database, credentials and TLS', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6380/3')).toEqual({
      host: '127.0.0.1',
      port: 6380,
      tls: false,
      username: undefined,
      password: undefined,
      database: 3,
    });
    expect(parseRedisUrl('rediss://app:p%40ss@cache.example.com')).toEqual({
      host: 'cache.example.com',
      port: 6379,
      tls: true,
      username: 'app',
      password: 'p@ss',
      database: 0,
    });
    expect(parseRedisUrl('redis://:secret@[::1]:6379/')).toMatchObject({ host: '::1', password: 'secret' });
  });

  it('refuses other schemes and a path that is not a database number', () => {
    expect(() => parseRedisUrl('http://cache:6379')).toThrow(/redis:\/\//);
    expect(() => parseRedisUrl('redis://cache:6379/main')).toThrow(/not a database number/);
    expect(() => parseRedisUrl('not a url')).toThrow(/not a valid URL/);
  });
});
