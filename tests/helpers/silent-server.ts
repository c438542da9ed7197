import { createServer, type Socket } from 'node:net';

/** A TCP server that accepts and reads but never answers: a store that is really gone. */
export interface SilentServer {
  port: number;
  /** The connections it accepted so far. */
  accepted: Socket[];
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const accepted: Socket[] = [];
  const server = createServer((socket) => {
    accepted.push(socket);
    socket.on('data', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    accepted,
    close: async () => {
      for (const socket of accepted) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
