import { openNodeRespSocket } from '../../console-server/src/stores/node-resp-socket';
import { parseRedisUrl } from '../../shared/src/stores/redis-url';
import { preambleFor, REDIS_CLIENT_NAMES } from '../../shared/src/stores/resp/preamble';
import {
  createRespConnection,
  type RespConnection,
  type RespSocket,
} from '../../shared/src/stores/resp/resp-connection';

/**
 * What workerd's `connect()` gives the Redis link, from Node's net (the console's own adapter):
 * the same Web streams over a real TCP socket, so the link's connection runs in Node tests
 * unchanged.
 */
export function nodeRespSocket(host: string, port: number): RespSocket {
  return openNodeRespSocket({ host, port, tls: false });
}

/** The Redis link's connection to `url` as the Durable Object opens it, over a Node socket. */
export function nodeLinkConnection(
  url: string,
  options: { stuckAfterMs?: number; now?: () => number } = {},
): RespConnection {
  const endpoint = parseRedisUrl(url);
  return createRespConnection({
    open: () => nodeRespSocket(endpoint.host, endpoint.port),
    preamble: preambleFor(endpoint, REDIS_CLIENT_NAMES.gatewayLink),
    stuckAfterMs: options.stuckAfterMs ?? 2000,
    now: options.now,
  });
}
