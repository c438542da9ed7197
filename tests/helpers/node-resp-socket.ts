import { connect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { parseRedisUrl } from '../../shared/src/stores/redis-url';
import { preambleFor, REDIS_CLIENT_NAMES } from '../../shared/src/stores/resp/preamble';
import {
  createRespConnection,
  type RespConnection,
  type RespSocket,
} from '../../shared/src/stores/resp/resp-connection';

/**
 * What workerd's `connect()` gives the Redis link, from Node's net: the same Web streams over a
 * real TCP socket, so the link's connection runs in Node tests unchanged. `opened` sees each one.
 */
export function nodeRespSocket(host: string, port: number, opened?: (socket: Socket) => void): RespSocket {
  const socket = connect({ host, port, noDelay: true });
  opened?.(socket);
  const web = Duplex.toWeb(socket) as unknown as Pick<RespSocket, 'readable' | 'writable'>;
  return { readable: web.readable, writable: web.writable, close: () => void socket.destroy() };
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
