import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { attachNeonWsProxy } from './neon-ws-proxy';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A "Postgres" that reads nothing and resets every connection shortly after it arrives. */
async function resettingTarget(): Promise<{ host: string; port: number }> {
  const server = createTcpServer((socket) => {
    socket.pause();
    setTimeout(() => socket.resetAndDestroy(), 200);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
}

async function proxyTo(target: { host: string; port: number }): Promise<number> {
  const server = createHttpServer();
  const proxy = attachNeonWsProxy(server, { target });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    await proxy.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

/** Resolves with the close code and how long after `since` it came. */
function closed(ws: WebSocket, since: number): Promise<{ code: number; ms: number }> {
  return new Promise((resolve) =>
    ws.once('close', (code) => resolve({ code, ms: performance.now() - since })),
  );
}

describe('neon ws proxy', () => {
  it('closes the tunnel at once when Postgres resets it while writes are held back', async () => {
    const port = await proxyTo(await resettingTarget());
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v2`);
    ws.on('error', () => {});
    await new Promise((resolve) => ws.once('open', resolve));
    const sent = performance.now();
    const closing = closed(ws, sent);
    // Far more than the socket buffers hold: the proxy pauses the WebSocket for backpressure
    // and is still waiting for 'drain' when the reset comes.
    ws.send(Buffer.alloc(16 * 1024 * 1024, 1));
    const { code, ms } = await closing;
    expect(code).toBe(1011);
    // Paused, the proxy never read the client's reply to its close frame: ws's 30 s close timeout.
    expect(ms).toBeLessThan(5_000);
  }, 40_000);
});
