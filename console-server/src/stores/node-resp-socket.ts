import { isIP, connect as tcpConnect } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import type { RedisEndpoint, RespSocket } from '@sluice/shared/stores';

/**
 * A Redis socket on Node as workerd's `connect()` gives the gateway's link one: Web streams
 * over TCP (TLS for `rediss://`), so the one RESP connection (shared/src/stores/resp) runs on
 * both.
 */
export function openNodeRespSocket(endpoint: Pick<RedisEndpoint, 'host' | 'port' | 'tls'>): RespSocket {
  const { host, port } = endpoint;
  const socket = endpoint.tls
    ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host })
    : tcpConnect({ host, port });
  socket.setNoDelay(true);
  // A peer gone without a word (a network path cut) shows up on a quiet connection too.
  socket.setKeepAlive(true, 15_000);
  const web = Duplex.toWeb(socket) as unknown as Pick<RespSocket, 'readable' | 'writable'>;
  return { readable: web.readable, writable: web.writable, close: () => void socket.destroy() };
}
