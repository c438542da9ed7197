import { createServer, type Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { BridgeTally } from './counts';
import { createLeanServer } from './http1-server';
import { type BridgeLimits, Budget, DEFAULT_BRIDGE_LIMITS } from './limits';
import { createNeonHttpHandler } from './neon-http';
import type { RedisBackend } from './redis-backend';
import { createUpstashBridge } from './upstash-bridge';

export interface StoreBridgeOptions {
  /** 0 picks a free port. Always bound to loopback. */
  port: number;
  /** The Postgres (real or PGlite socket) every Neon HTTP statement is sent to. */
  pgTarget: { host: string; port: number };
  redis: RedisBackend;
  /** Bearer token the Upstash bridge requires. */
  redisToken: string;
  /** Caps on what is held in flight, the pool size and body size; defaults otherwise. */
  limits?: Partial<BridgeLimits>;
}

export interface StoreBridge {
  port: number;
  /** Values for the apps' environment, pointing the official drivers here. */
  env: {
    NEON_LOCAL_HTTP: string;
    UPSTASH_REDIS_REST_URL: string;
    UPSTASH_REDIS_REST_TOKEN: string;
  };
  close(): Promise<void>;
}

/**
 * The store bridge: what the gateway on workerd cannot do itself, since a Worker speaks HTTP
 * (and a socket only from its Redis link's Durable Object): Neon's HTTP SQL endpoint (/sql)
 * over a real Postgres (or `npm start`'s PGlite), and an Upstash-compatible REST endpoint over
 * Redis (or the embedded store), for its Redis calls off the link, and all of them on Miniflare.
 * The console reaches Postgres and a real Redis itself. The Upstash protocol also has a port
 * of its own (the one `env` gives the apps), served by the lean HTTP/1.1 server of
 * http1-server.ts: the gateway's admissions go through it on Miniflare and without the link, and a
 * lone admission costs the bridge less CPU there than through Node's `http`. It listens on
 * loopback only, keeps its connections to the apps alive, reuses its store connections, and
 * sheds load with 503 once the in-flight budgets are spent (request bytes are one budget
 * shared by both endpoints). It counts what it serves (requests per endpoint, Redis commands,
 * SQL statements) and reports the totals at `GET /_bridge/counts` to holders of the Upstash
 * token (see counts.ts).
 */
export async function startStoreBridge(options: StoreBridgeOptions): Promise<StoreBridge> {
  const limits: BridgeLimits = { ...DEFAULT_BRIDGE_LIMITS, ...options.limits };
  const bytes = new Budget('request bytes', limits.maxBytesInFlight);
  const queries = new Budget('SQL statements', limits.maxQueriesInFlight);
  const commands = new Budget('Redis commands', limits.maxCommandsInFlight);
  const tally = new BridgeTally(commands, queries);
  const neonHttp = createNeonHttpHandler({
    target: options.pgTarget,
    poolSize: limits.pgPoolSize,
    pgTimeoutMs: limits.pgTimeoutMs,
    maxBodyBytes: limits.maxBodyBytes,
    queries,
    bytes,
  });
  const upstash = createUpstashBridge({
    backend: options.redis,
    token: options.redisToken,
    maxBodyBytes: limits.maxBodyBytes,
    commands,
    bytes,
    counts: () => tally.snapshot(),
  });
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const isSql = url === '/sql' || url.startsWith('/sql?');
    tally.request(url, isSql);
    const handler = isSql ? neonHttp.handle : upstash.handle;
    handler(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `bridge: ${String(error)}` }));
    });
  });
  // The apps' fetch() keeps its connections open between requests: no TCP set-up per call.
  server.keepAliveTimeout = 60_000;
  // A client that stalls mid-request cannot hold a socket and its body bytes for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  // The apps' Upstash traffic (every model request's admission) has a port of its own, on the
  // lean HTTP/1.1 server; the main port answers the same protocol through Node's `http`.
  const rest = createLeanServer({
    handler: {
      head(head) {
        tally.request(head.target, false);
        return upstash.lean.head(head);
      },
      answer: upstash.lean.answer,
    },
    maxHeadBytes: LEAN_MAX_HEAD_BYTES,
    maxBodyBytes: limits.maxBodyBytes,
    requestTimeoutMs: server.requestTimeout,
    keepAliveTimeoutMs: server.keepAliveTimeout,
  });
  await listen(server, options.port);
  await listen(rest, 0);
  const port = (server.address() as AddressInfo).port;
  const restPort = (rest.address() as AddressInfo).port;
  return {
    port,
    env: {
      NEON_LOCAL_HTTP: `http://127.0.0.1:${port}/sql`,
      UPSTASH_REDIS_REST_URL: `http://127.0.0.1:${restPort}`,
      UPSTASH_REDIS_REST_TOKEN: options.redisToken,
    },
    async close() {
      server.closeAllConnections();
      rest.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => server.close(() => resolve())),
        new Promise<void>((resolve) => rest.close(() => resolve())),
      ]);
      await neonHttp.close();
    },
  };
}

/** Node's own cap on a request head (its --max-http-header-size default). */
const LEAN_MAX_HEAD_BYTES = 16 * 1024;

function listen(server: NetServer, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}
