import {
  createRespConnection,
  createRespUpstash,
  parseRedisUrl,
  preambleFor,
  REDIS_CLIENT_NAMES,
} from '@sluice/shared/stores';
import type { Redis } from '@upstash/redis';
import { openNodeRespSocket } from './node-resp-socket';

export interface DirectRedis {
  redis: Redis;
  /** Fails what is in flight and closes the socket (shutdown). */
  close(): void;
}

/**
 * The console's Redis at REDIS_URL: one pipelined RESP connection over TCP, opened on first use
 * (AUTH and SELECT from the URL), behind the client surface the domain code takes. Every call
 * is bounded by `timeoutMs`; a socket that failed or stopped answering is replaced by the next.
 */
export function connectDirectRedis(url: string, timeoutMs: number): DirectRedis {
  const endpoint = parseRedisUrl(url);
  const connection = createRespConnection({
    open: () => openNodeRespSocket(endpoint),
    preamble: preambleFor(endpoint, REDIS_CLIENT_NAMES.console),
    stuckAfterMs: timeoutMs,
  });
  return { redis: createRespUpstash(connection, timeoutMs), close: () => connection.close() };
}
