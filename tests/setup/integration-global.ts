import type { TestProject } from 'vitest/node';
import { createRedisBackend, type RedisBackend, runCommand } from '../../self-host/bridge/redis-backend';
import { startStoreBridge } from '../../self-host/bridge/server';
import { INTEGRATION_REDIS_URL, PG_HOST, PG_PORT } from '../helpers/env';

/**
 * One dev sidecar for the whole integration run, in front of the real Postgres and Redis
 * (Redis database 1, flushed here). Test files get its endpoints through inject('sidecarEnv').
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = createRedisBackend(INTEGRATION_REDIS_URL);
  await runCommand(redis, ['FLUSHDB']);
  return provideBridge(project, redis);
}

/** A store bridge over the real Postgres and the given Redis, its endpoints as inject('sidecarEnv'). */
export async function provideBridge(project: TestProject, redis: RedisBackend): Promise<() => Promise<void>> {
  const sidecar = await startStoreBridge({
    port: 0,
    pgTarget: { host: PG_HOST, port: PG_PORT },
    redis,
    redisToken: 'integration-token',
  });
  project.provide('sidecarEnv', sidecar.env);
  return async () => {
    await sidecar.close();
    await redis.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    sidecarEnv: {
      NEON_LOCAL_HTTP: string;
      UPSTASH_REDIS_REST_URL: string;
      UPSTASH_REDIS_REST_TOKEN: string;
    };
  }
}
