// A store bridge on its own, for dev/bench/bridge.ts: real Redis (BENCH_REDIS_URL) behind it;
// prints `port=<n> rest=<m>` once listening (the main port, where Node's `http` answers every
// protocol, and the Upstash port the apps are given, on the lean server) and runs until killed.
import { createRedisBackend } from '../../self-host/bridge/redis-backend';
import { startStoreBridge } from '../../self-host/bridge/server';

const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
const redis = createRedisBackend(redisUrl);
const bridge = await startStoreBridge({
  port: 0,
  pgTarget: { host: '127.0.0.1', port: Number(process.env.BENCH_PG_PORT ?? 5432) },
  redis,
  redisToken: process.env.BENCH_BRIDGE_TOKEN ?? 'bench-token',
});
console.log(`port=${bridge.port} rest=${new URL(bridge.env.UPSTASH_REDIS_REST_URL).port}`);
const stop = async (): Promise<void> => {
  await bridge.close();
  await redis.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
