import type { Redis } from '@upstash/redis';

/**
 * The slice of the Upstash client the domain uses. Everything runtime-side talks to Redis
 * through this type, so tests and adapters can see exactly which commands matter.
 */
export type RedisPort = Pick<
  Redis,
  | 'eval'
  | 'evalsha'
  | 'scriptLoad'
  | 'get'
  | 'set'
  | 'del'
  | 'ping'
  | 'incr'
  | 'pexpire'
  | 'pttl'
  | 'mget'
  | 'hgetall'
  | 'pipeline'
>;
