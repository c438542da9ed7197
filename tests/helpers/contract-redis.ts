import type { Redis } from '@upstash/redis';
import { inject } from 'vitest';
import { connectDirectRedis } from '../../console-server/src/stores/redis';
import { createUpstash } from '../../shared/src/stores/upstash';

/**
 * The client a Redis-port contract suite runs on: the Upstash client over the store bridge's
 * REST endpoint (projects `integration`, real Redis, and `embedded`, the in-memory store), or
 * the console's RESP connection straight to Redis (project `direct`, which provides its URL).
 */
export function contractRedis(timeoutMs = 5000): Redis {
  const direct = inject('directRedisUrl');
  if (direct) return connectDirectRedis(direct, timeoutMs).redis;
  const env = inject('sidecarEnv');
  return createUpstash({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN, timeoutMs });
}

/** Which stand-in the suite runs on, for the few known gaps of the in-memory store. */
export function contractStore(): 'bridge' | 'direct' {
  return inject('directRedisUrl') ? 'direct' : 'bridge';
}
