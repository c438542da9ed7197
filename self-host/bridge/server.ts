import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNeonHttpHandler } from './neon-http';
import { attachNeonWsProxy } from './neon-ws-proxy';
import type { RedisBackend } from './redis-backend';
import { createUpstashBridge } from './upstash-bridge';

export interface StoreBridgeOptions {
  /** 0 picks a free port. Always bound to loopback. */
  port: number;
  /** The Postgres (real or PGlite socket) every Neon request is sent to. */
  pgTarget: { host: string; port: number };
  redis: RedisBackend;
  /** Bearer token the Upstash bridge requires. */
  redisToken: string;
}

export interface StoreBridge {
  port: number;
  /** Values for the apps' environment, pointing the official drivers here. */
  env: {
    NEON_LOCAL_WS_PROXY: string;
    NEON_LOCAL_HTTP: string;
    UPSTASH_REDIS_REST_URL: string;
    UPSTASH_REDIS_REST_TOKEN: string;
  };
  close(): Promise<void>;
}

/**
 * The store bridge: Neon's WebSocket proxy (/v2) and HTTP SQL endpoint (/sql) over a real
 * Postgres, and an Upstash-compatible REST bridge (every other path) over Redis.
 */
export async function startStoreBridge(options: StoreBridgeOptions): Promise<StoreBridge> {
  const neonHttp = createNeonHttpHandler({ target: options.pgTarget });
  const upstash = createUpstashBridge({ backend: options.redis, token: options.redisToken });
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const handler = path === '/sql' ? neonHttp.handle : upstash.handle;
    handler(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `bridge: ${String(error)}` }));
    });
  });
  server.keepAliveTimeout = 60_000;
  const wsProxy = attachNeonWsProxy(server, { target: options.pgTarget, path: '/v2' });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    env: {
      NEON_LOCAL_WS_PROXY: `127.0.0.1:${port}/v2`,
      NEON_LOCAL_HTTP: `http://127.0.0.1:${port}/sql`,
      UPSTASH_REDIS_REST_URL: `http://127.0.0.1:${port}`,
      UPSTASH_REDIS_REST_TOKEN: options.redisToken,
    },
    async close() {
      await wsProxy.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await neonHttp.close();
    },
  };
}
