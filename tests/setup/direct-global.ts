import type { TestProject } from 'vitest/node';
import { createRedisBackend } from '../../self-host/bridge/redis-backend';
import { INTEGRATION_REDIS_URL } from '../helpers/env';
import { provideBridge } from './integration-global';

/**
 * The Redis-port contract suites again, over the console's direct connection: the Upstash client
 * on a RESP socket to real Redis (the integration database, every key of its own), no bridge in
 * between. The files ask for their client through tests/helpers/contract-redis.ts; a bridge over
 * the same database still serves the checks that need an HTTP endpoint (a store that stops
 * answering).
 */
export default function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('directRedisUrl', INTEGRATION_REDIS_URL);
  return provideBridge(project, createRedisBackend(INTEGRATION_REDIS_URL));
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by the `direct` project only. */
    directRedisUrl?: string;
  }
}
