import type { IncomingMessage, Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { debuglog } from 'node:util';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';

/** `NODE_DEBUG=sluice-bridge` turns these on; connection churn is routine and not worth a log line. */
const debug = debuglog('sluice-bridge');

/** Above this many bytes queued towards the browser/worker we stop reading from Postgres. */
const WS_HIGH_WATER_BYTES = 1024 * 1024;
/** How long a closed WebSocket's Postgres socket may take to flush before it is destroyed. */
const TCP_LINGER_MS = 5_000;
/** A Postgres that does not accept the connection within this long counts as unreachable. */
const TCP_CONNECT_TIMEOUT_MS = 10_000;

export interface NeonWsProxyOptions {
  /** Every tunnel goes here, whatever address the client asks for. */
  target: { host: string; port: number };
  /** Upgrade requests on other paths are left to other listeners. Default '/v2'. */
  path?: string;
  /** Open tunnels at most (each holds a Postgres connection); more are refused with 503. */
  maxTunnels?: number;
}

interface Tunnel {
  ws: WebSocket;
  tcp: Socket;
}

/**
 * Neon's WebSocket proxy protocol: the driver sends raw Postgres wire bytes as binary frames
 * to `ws://host/v2?address=host:port`, and expects the server's bytes back the same way.
 */
export function attachNeonWsProxy(server: Server, opts: NeonWsProxyOptions): { close(): Promise<void> } {
  const path = opts.path ?? '/v2';
  const maxTunnels = opts.maxTunnels ?? Number.POSITIVE_INFINITY;
  const { target } = opts;
  const wss = new WebSocketServer({ noServer: true });
  const tunnels = new Set<Tunnel>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://bridge.invalid');
    if (url.pathname !== path) return;
    if (tunnels.size >= maxTunnels) {
      refuseUpgrade(
        socket,
        `store bridge overloaded: ${tunnels.size} Postgres tunnels open (limit ${maxTunnels})`,
      );
      return;
    }
    // The client's choice of address is never honoured: this proxy must not become an open
    // relay to arbitrary hosts, so a mismatch is only worth a debug note.
    const requested = url.searchParams.get('address');
    if (requested !== null && requested !== `${target.host}:${target.port}`) {
      debug('neon ws: client asked for %s, tunnelling to %s:%d', requested, target.host, target.port);
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const tunnel = openTunnel(ws, target, () => tunnels.delete(tunnel));
      tunnels.add(tunnel);
    });
  };
  server.on('upgrade', onUpgrade);

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      for (const { ws, tcp } of tunnels) {
        ws.terminate();
        tcp.destroy();
      }
      tunnels.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** Connects to the target and pipes frames both ways until either side goes away. */
function openTunnel(ws: WebSocket, target: { host: string; port: number }, onGone: () => void): Tunnel {
  // net.Socket queues writes made while still connecting, so client frames that arrive
  // before the TCP handshake completes are not lost.
  const tcp = connect({ host: target.host, port: target.port });
  tcp.setNoDelay(true);
  tcp.setKeepAlive(true, 15_000);
  const connectTimer = setTimeout(() => {
    tcp.destroy(new Error(`no connection to Postgres within ${TCP_CONNECT_TIMEOUT_MS} ms`));
  }, TCP_CONNECT_TIMEOUT_MS);
  tcp.once('connect', () => clearTimeout(connectTimer));
  tcp.once('close', () => clearTimeout(connectTimer));
  const tunnel: Tunnel = { ws, tcp };
  pipeClientToPostgres(ws, tcp);
  pipePostgresToClient(tcp, ws);
  closeTogether(tunnel, target, onGone);
  return tunnel;
}

function pipeClientToPostgres(ws: WebSocket, tcp: Socket): void {
  let paused = false;
  ws.on('message', (data: RawData) => {
    if (tcp.destroyed) return;
    // A write into a socket that is failing also returns false; its 'drain' never comes, and
    // closeTogether resumes the WebSocket so the closing handshake can still be read.
    if (tcp.write(toBuffer(data)) || paused) return;
    // Postgres is not keeping up (e.g. a huge COPY): stop reading frames until it drains.
    paused = true;
    ws.pause();
    tcp.once('drain', () => {
      paused = false;
      ws.resume();
    });
  });
}

function pipePostgresToClient(tcp: Socket, ws: WebSocket): void {
  let paused = false;
  tcp.on('data', (chunk: Buffer) => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(chunk, { binary: true }, (error) => {
      if (error) return; // the 'error'/'close' handlers tear the tunnel down
      if (paused && ws.bufferedAmount < WS_HIGH_WATER_BYTES) {
        paused = false;
        tcp.resume();
      }
    });
    // A slow client (e.g. a large result set over a slow link) must not make us buffer the
    // whole result in memory: stop reading Postgres until the queued frames are flushed.
    if (!paused && ws.bufferedAmount >= WS_HIGH_WATER_BYTES) {
      paused = true;
      tcp.pause();
    }
  });
}

function closeTogether(tunnel: Tunnel, target: { host: string; port: number }, onGone: () => void): void {
  const { ws, tcp } = tunnel;
  let wsClosed = false;
  let tcpClosed = false;
  const maybeGone = (): void => {
    if (wsClosed && tcpClosed) onGone();
  };
  ws.on('error', (error) => {
    debug('neon ws: websocket error: %s', error.message);
    tcp.destroy();
  });
  ws.on('close', () => {
    wsClosed = true;
    // end() rather than destroy() so a final Terminate message still reaches Postgres.
    tcp.end();
    setTimeout(() => tcp.destroy(), TCP_LINGER_MS).unref();
    maybeGone();
  });
  tcp.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND') {
      console.warn(`bridge: cannot reach Postgres at ${target.host}:${target.port} (${error.code})`);
    } else {
      debug('neon ws: postgres socket error: %s', error.message);
    }
  });
  tcp.on('close', (hadError) => {
    tcpClosed = true;
    // A WebSocket paused for backpressure would never read the client's reply to our close
    // frame, and the client would wait out ws's 30 s close timeout (seen as a console query
    // taking 30 s when Postgres reset a connection mid-write).
    ws.resume();
    if (ws.readyState === ws.OPEN) ws.close(hadError ? 1011 : 1000);
    maybeGone();
  });
}

/** ws hands over a Buffer, an ArrayBuffer or fragments depending on options; normalise. */
function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Answers an upgrade request with a plain 503 and closes the socket. */
function refuseUpgrade(socket: Duplex, message: string): void {
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
