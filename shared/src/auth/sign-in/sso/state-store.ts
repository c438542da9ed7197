import { type LuaScript, runScript } from '../../../stores/lua-script';
import type { RedisPort } from '../../../stores/redis-port';

/** GET and DEL in one step: a state (or a one-time code) can be used once, even by racing callers. */
export const TAKE_SCRIPT: LuaScript = {
  name: 'sso-take',
  source: `local v = redis.call('GET', KEYS[1])
if v then redis.call('DEL', KEYS[1]) end
return v`,
  sha1: 'f0ba8a372dec0dd008e39eeebe13b921cb287eaa',
};

/** Single-use values in Redis with a TTL: SSO state (nonce, PKCE verifier) and one-time UI codes. */
export function createOneTimeStore<T>(redis: RedisPort, prefix: string) {
  return {
    async put(id: string, value: T, ttlSeconds: number): Promise<void> {
      await redis.set(`${prefix}${id}`, JSON.stringify(value), { ex: ttlSeconds });
    },
    async take(id: string): Promise<T | null> {
      const raw = await runScript<unknown>(redis, TAKE_SCRIPT, [`${prefix}${id}`], []);
      if (raw === null || raw === undefined) return null;
      return (typeof raw === 'string' ? JSON.parse(raw) : raw) as T;
    },
  };
}
