import type { TestProject } from 'vitest/node';
import { createMemoryBackend } from '../../dev/embedded/memory-backend';
import { startStoreBridge } from '../../self-host/bridge/server';
import { PG_HOST, PG_PORT } from '../helpers/env';

/**
 * The Redis-port contract suites again, over the embedded stand-in `npm start` uses when no
 * REDIS_URL is set (ioredis-mock with its Lua, behind the same bridge): the files read the
 * same inject('sidecarEnv'), so every limit, script and usage path is held to one contract on
 * both backends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = createMemoryBackend();
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
