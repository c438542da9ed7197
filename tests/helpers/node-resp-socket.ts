import { connect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { RespSocket } from '../../shared/src/stores/resp/resp-connection';

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
