import type { TestProject } from 'vitest/node';
import { createRedisBackend } from '../../self-host/bridge/redis-backend';
import { INTEGRATION_REDIS_URL, withRedisDatabase } from '../helpers/env';
import { provideBridge } from './integration-global';

/** A Redis database of its own: the integration project flushes database 1 when it starts. */
const DIRECT_REDIS_URL = withRedisDatabase(INTEGRATION_REDIS_URL, 15);

/**
 * The Redis-port contract suites again, over the console's direct connection: the Upstash client
 * on a RESP socket to real Redis (REDIS_URL), no bridge in between. The files ask for their
 * client through tests/helpers/contract-redis.ts; a bridge over the same database still serves
 * the few checks that need an HTTP endpoint of their own (a store that stops answering).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = createRedisBackend(DIRECT_REDIS_URL);
  await redis.pipeline([['FLUSHDB']]);
  project.provide('directRedisUrl', DIRECT_REDIS_URL);
  return provideBridge(project, redis);
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by the `direct` project only. */
    directRedisUrl?: string;
  }
}
