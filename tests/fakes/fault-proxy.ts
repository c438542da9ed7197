import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * What the link to a store does:
 * - pass: bytes flow both ways;
 * - refuse: every connection, open or new, is reset at once (the store is down);
 * - blackhole: connections stay open but nothing arrives either way (a dead network path;
 *   the client only learns from its own deadlines).
 */
export type FaultMode = 'pass' | 'refuse' | 'blackhole';

export interface FaultProxy {
  readonly port: number;
  readonly mode: FaultMode;
  /** The same URL with this proxy's host and port in place of the store's. */
  rewrite(url: string): string;
  setMode(mode: FaultMode): void;
  /** Connections accepted so far (a client that reconnects shows here). */
  readonly accepted: number;
  /** Connections open now (neither side has closed them). */
  readonly open: number;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  store: Socket | null;
  /** Caught by a blackhole: stays silent for good, as a connection whose path broke does. */
  hung: boolean;
}

/**
 * A TCP proxy in front of one store that a test switches between pass, refuse and blackhole,
 * so outages are driven against the running stack with its real drivers.
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = 'pass';
  let accepted = 0;
  const links = new Set<Link>();

  // A hung link swallows what it is sent: resuming it later would hand the client replies
  // out of order, which no real network does.
  const forward = (link: Link, to: () => Socket | null) => (chunk: Buffer) => {
    if (mode === 'pass' && !link.hung) to()?.write(chunk);
  };

  const server: Server = createServer((client) => {
    accepted += 1;
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const link: Link = { client, store: null, hung: mode === 'blackhole' };
    links.add(link);
    const drop = () => {
      links.delete(link);
      client.destroy();
      link.store?.destroy();
    };
    client.on(
      'data',
      forward(link, () => link.store),
    );
    client.on('error', drop);
    client.on('close', drop);
    if (mode === 'blackhole') return;
    const store = connect(target.port, target.host);
    link.store = store;
    store.on(
      'data',
      forward(link, () => client),
    );
    store.on('error', drop);
    store.on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    get open() {
      return links.size;
    },
    rewrite(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    setMode(next) {
      mode = next;
      if (next === 'blackhole') for (const link of links) link.hung = true;
      if (next !== 'refuse') return;
      for (const link of links) {
        link.client.resetAndDestroy();
        link.store?.destroy();
      }
      links.clear();
    },
    close() {
      for (const link of links) {
        link.client.destroy();
        link.store?.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
