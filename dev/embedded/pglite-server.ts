import { createServer, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Serves one PGlite database to several Postgres wire-protocol clients (the console's pool, the
 * store bridge's Neon HTTP pool). PGlite has a single session, so clients must take turns — and a
 * turn has to be a whole protocol exchange, not one message: the extended protocol sends Parse,
 * Bind, Execute and Sync as separate messages, and another client's Parse in between replaces
 * the unnamed statement ("unnamed prepared statement does not exist", or worse, a Bind of one
 * client's values to another's statement). @electric-sql/pglite-socket 0.2.17 queues single
 * messages, which is exactly that race under concurrent load; this server does not.
 *
 * A client takes the session with its first message and keeps it until a Sync or a simple
 * Query has been answered and no transaction is open; the others wait their turn, in order.
 */
export interface PgliteServer {
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
/** Messages after which a client waits for the server: the end of a turn (outside a transaction). */
const TURN_ENDS = new Set(['S', 'Q']);

export async function servePglite(db: PGlite, host: string, port: number): Promise<PgliteServer> {
  let owner: Socket | null = null;
  let waiters: (() => void)[] = [];
  const acquire = async (client: Socket) => {
    while (owner && owner !== client) await new Promise<void>((resolve) => waiters.push(resolve));
    owner = client;
  };
  const release = (client: Socket) => {
    if (owner !== client) return;
    owner = null;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const leave = async (client: Socket) => {
    // A client gone mid-transaction must not leave the session in it for the next one.
    if (owner === client && db.isInTransaction()) await db.exec('ROLLBACK').catch(() => {});
    release(client);
  };

  const server = createServer((client) => {
    let buffered = Buffer.alloc(0);
    let started = false;
    let chain = Promise.resolve();
    const run = async (message: Uint8Array, endsTurn: boolean) => {
      await acquire(client);
      const reply = await db.execProtocolRaw(message);
      if (reply.length > 0 && client.writable) client.write(reply);
      if (endsTurn && !db.isInTransaction()) release(client);
    };
    client.setNoDelay(true);
    client.on('data', (data: Buffer) => {
      buffered = Buffer.concat([buffered, data]);
      for (;;) {
        const next = nextMessage(buffered, started);
        if (!next) break;
        buffered = buffered.subarray(next.length);
        const message = Uint8Array.from(next.bytes);
        if (!started) {
          if (next.code === SSL_REQUEST) {
            client.write('N');
            continue;
          }
          if (next.code === CANCEL_REQUEST) {
            client.end();
            return;
          }
          if (next.code !== PROTOCOL_3) {
            client.destroy();
            return;
          }
        }
        const type = started ? String.fromCharCode(message[0] ?? 0) : 'startup';
        if (type === 'X') {
          client.end(); // Terminate: the close handler gives the session back
          return;
        }
        const endsTurn = type === 'startup' || TURN_ENDS.has(type);
        chain = chain
          .then(() => run(message, endsTurn))
          .catch(() => {
            client.destroy();
          });
        started = true;
      }
    });
    client.on('close', () => {
      chain = chain.then(() => leave(client));
    });
    client.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first whole message in the buffer: startup-phase messages have no type byte. */
function nextMessage(
  buffer: Buffer,
  started: boolean,
): { bytes: Buffer; length: number; code: number } | null {
  if (!started) {
    if (buffer.length < 8) return null;
    const length = buffer.readInt32BE(0);
    if (buffer.length < length) return null;
    return { bytes: buffer.subarray(0, length), length, code: buffer.readInt32BE(4) };
  }
  if (buffer.length < 5) return null;
  const length = 1 + buffer.readInt32BE(1);
  if (buffer.length < length) return null;
  return { bytes: buffer.subarray(0, length), length, code: 0 };
}
