/** Where and how to reach a Redis server, from a `redis://` or `rediss://` URL. */
export interface RedisEndpoint {
  host: string;
  port: number;
  tls: boolean;
  username: string | undefined;
  password: string | undefined;
  /** SELECTed after connecting (the URL path, `/0` by default). */
  database: number;
}

/**
 * `redis://[user[:password]@]host[:port][/db]`, or `rediss://` for TLS. A password without a
 * user (`redis://:secret@host`) authenticates as the default user, as redis-cli does.
 */
export function parseRedisUrl(raw: string): RedisEndpoint {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('REDIS_URL is not a valid URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new Error('REDIS_URL must start with redis:// or rediss://');
  }
  const path = url.pathname.replace(/^\//, '');
  const database = path === '' ? 0 : Number(path);
  if (!Number.isInteger(database) || database < 0)
    throw new Error(`REDIS_URL: "${path}" is not a database number`);
  return {
    host: url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: Number(url.port || 6379),
    tls: url.protocol === 'rediss:',
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database,
  };
}
