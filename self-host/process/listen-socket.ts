import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { getSystemErrorName } from 'node:util';

/**
 * A listening TCP socket this process holds but never accepts on: its descriptor is handed to
 * child processes (each `workerd serve --socket-fd`), which all accept from the one queue.
 */
export interface ListenSocket {
  fd: number;
  /** `host:port` as bound, for messages. */
  address: string;
  close(): void;
}

/** The part of libuv's TCP handle this module uses (the handle Node's own servers wrap). */
interface TcpHandle {
  fd: number;
  getsockname(out: { port?: number }): number;
  close(): void;
}

/** Node's internal bind used by the cluster module (lib/net.js): a bound handle, not listening. */
type CreateServerHandle = (
  address: string,
  port: number,
  addressType: 4 | 6,
  fd: undefined,
  flags: number,
) => TcpHandle | number;

/**
 * Binds `host:port` and puts the socket in the listening state without this process's event
 * loop ever polling it: a net.Server here would take connections away from the children. The
 * bind is net._createServerHandle's (SO_REUSEADDR, close-on-exec, the cluster module's own
 * way); listen(2) is made by a throwaway Node child on its inherited copy of the descriptor,
 * which exits before its loop could accept. The listening state belongs to the socket, so it
 * stays when that child is gone.
 */
export async function openListenSocket(host: string, port: number): Promise<ListenSocket> {
  const { address, family } = await resolveHost(host);
  const createServerHandle = (net as unknown as { _createServerHandle?: CreateServerHandle })
    ._createServerHandle;
  if (typeof createServerHandle !== 'function') {
    throw new Error('this Node.js has no net._createServerHandle to share a listening socket with');
  }
  const shown = shownAddress(address, family, port);
  // Flags 0: an IPv6 wildcard takes IPv4 too, as Node's own servers do.
  const handle = createServerHandle(address, port, family, undefined, 0);
  if (typeof handle === 'number') throw new Error(`cannot bind ${shown}: ${getSystemErrorName(handle)}`);
  // libuv keeps a bind's EADDRINUSE for the listen() of the same handle, which never comes
  // here; the child's listen(2) would then pick a random port. An unbound socket has port 0.
  const bound: { port?: number } = {};
  if (handle.getsockname(bound) !== 0 || bound.port !== port) {
    handle.close();
    throw new Error(`cannot bind ${shown}: EADDRINUSE (address already in use)`);
  }
  try {
    await listenInChild(handle.fd);
  } catch (error) {
    handle.close();
    throw new Error(`cannot listen on ${shown}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { fd: handle.fd, address: shown, close: () => handle.close() };
}

/** `host:port`, an IPv6 address in brackets. */
export function shownAddress(address: string, family: 4 | 6, port: number): string {
  return family === 6 ? `[${address}]:${port}` : `${address}:${port}`;
}

/** An IP literal as it is (brackets dropped), a name through the resolver as the OS does it. */
export async function resolveHost(host: string): Promise<{ address: string; family: 4 | 6 }> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const literal = net.isIP(bare);
  if (literal === 4 || literal === 6) return { address: bare, family: literal };
  const found = await lookup(bare);
  return { address: found.address, family: found.family === 6 ? 6 : 4 };
}

/**
 * The 'listening' callback runs on the next tick, before the child's loop first polls, so the
 * child exits without ever accepting a connection meant for the gateway.
 */
const LISTEN_AND_EXIT =
  "require('node:net').createServer().on('error', (e) => { console.error(e.code || e.message); process.exit(1); })" +
  '.listen({ fd: 3, backlog: 511 }, () => process.exit(0))';

function listenInChild(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', LISTEN_AND_EXIT], {
      stdio: ['ignore', 'ignore', 'pipe', fd],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(stderr.trim() || `listen helper ended with ${signal ?? `exit code ${code}`}`));
    });
  });
}
