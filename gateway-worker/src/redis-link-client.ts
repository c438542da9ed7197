import type { PipelineReply } from '@sluice/shared/runtime';
import { createLinkRedis, type HotRedis } from '@sluice/shared/stores';
import type { GatewayBindings } from './types';

/** The Redis link's class (redis-link-object.ts, exported by entry.ts), its binding, its one object. */
export const REDIS_LINK_CLASS = 'RedisLink';
export const REDIS_LINK_BINDING = 'REDIS_LINK';
const LINK_NAME = 'redis';

interface LinkNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { exec(commands: string[][]): Promise<PipelineReply[]> };
}

/**
 * The hot path's Redis over the link when the runtime binds one (`npm run serve`), else null
 * (the edge, Miniflare: the Upstash client over HTTP).
 */
export function linkedHotRedis(env: GatewayBindings): HotRedis | null {
  const namespace = env[REDIS_LINK_BINDING] as LinkNamespace | undefined;
  if (!namespace) return null;
  const id = namespace.idFromName(LINK_NAME);
  // A stub is an I/O object of the request that makes it: one per call, from whichever
  // request sends the batch.
  return createLinkRedis((commands) => namespace.get(id).exec(commands));
}
