import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { BoundedCloseWebSocket, CLOSE_HANDSHAKE_MS } from './bounded-close-websocket';

let server: WebSocketServer | undefined;
afterEach(async () => {
  for (const client of server?.clients ?? []) client.terminate();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A peer that accepts the connection and then never reads again (a path that went dead). */
async function deafPeer(): Promise<number> {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket) => socket.pause());
  await new Promise((resolve) => server!.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

async function closeAndTime(client: WebSocket): Promise<number> {
  client.on('error', () => {});
  await new Promise((resolve) => client.once('open', resolve));
  const started = performance.now();
  const gone = new Promise((resolve) => client.once('close', resolve));
  client.close();
  await gone;
  return performance.now() - started;
}

describe('BoundedCloseWebSocket', () => {
  it('is closed within the handshake bound when the peer never answers the close frame', async () => {
    const port = await deafPeer();
    const ms = await closeAndTime(new BoundedCloseWebSocket(`ws://127.0.0.1:${port}`));
    expect(ms).toBeGreaterThanOrEqual(CLOSE_HANDSHAKE_MS - 50);
    expect(ms).toBeLessThan(CLOSE_HANDSHAKE_MS + 2_000);
  });

  it('closes with the handshake as usual when the peer answers', async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server!.once('listening', resolve));
    const port = (server.address() as AddressInfo).port;
    const client = new BoundedCloseWebSocket(`ws://127.0.0.1:${port}`);
    const code = new Promise((resolve) => client.once('close', (c) => resolve(c)));
    expect(await closeAndTime(client)).toBeLessThan(CLOSE_HANDSHAKE_MS);
    expect(await code).toBe(1005);
  });
});
