import { openListenSocket, resolveHost, shownAddress } from './listen-socket';
import { assertPortFree, listenThenExec, type ReusePortSupport } from './reuse-port';

/**
 * How the processes that serve one port get their listening socket (as fd 3):
 * - `per-process`: each its own, with SO_REUSEPORT, and the kernel spreads new connections
 *   evenly over them. A process that dies takes its socket with it: new connections go to the
 *   others meanwhile, and those still queued on its socket (not yet accepted) are reset.
 * - `shared`: one socket, held by this process and inherited by every child. A connection
 *   goes to whichever child accepts first, so one can take a burst whole (a client pool's 32
 *   connections opened at once) while another gets none; a child's restart loses nothing queued.
 */
export type SocketMode = 'per-process' | 'shared';

export interface PortSockets {
  mode: SocketMode;
  /** `host:port` as bound, for messages. */
  address: string;
  /** How to start `command args` with its socket on fd 3, and the descriptors it inherits. */
  launch(command: string, args: string[]): { command: string; args: string[]; inheritFds: number[] };
  /** Once no process serves the port any more. */
  close(): void;
}

export interface PortSocketsOptions {
  host: string;
  port: number;
  processes: number;
  /** Asked for (SLUICE_GATEWAY_SOCKETS); unset: per-process for several processes where supported. */
  mode: SocketMode | undefined;
  reusePort: () => ReusePortSupport;
  log: (line: string) => void;
}

/**
 * The sockets for `processes` processes on one port: a socket each when there are several and
 * the system balances them (`shared` for one process, whose restart then loses no queued
 * connection), else the one socket; `per-process` asked for where it cannot work is an error.
 */
export async function openPortSockets(options: PortSocketsOptions): Promise<PortSockets> {
  const wanted = options.mode ?? (options.processes > 1 ? 'per-process' : 'shared');
  if (wanted === 'shared') return sharedSocket(options.host, options.port);
  const support = options.reusePort();
  if (support.ok) return socketPerProcess(support.perl, options.host, options.port);
  if (options.mode === 'per-process') {
    throw new Error(`SLUICE_GATEWAY_SOCKETS=per-process cannot work here: ${support.reason}`);
  }
  options.log(`the gateway processes share one listening socket: ${support.reason} for a socket each`);
  return sharedSocket(options.host, options.port);
}

async function sharedSocket(host: string, port: number): Promise<PortSockets> {
  const socket = await openListenSocket(host, port);
  return {
    mode: 'shared',
    address: socket.address,
    launch: (command, args) => ({ command, args, inheritFds: [socket.fd] }),
    close: () => socket.close(),
  };
}

async function socketPerProcess(perl: string, host: string, port: number): Promise<PortSockets> {
  const { address, family } = await resolveHost(host);
  const shown = shownAddress(address, family, port);
  await assertPortFree(address, port, shown);
  return {
    mode: 'per-process',
    address: shown,
    launch: (command, args) => ({ ...listenThenExec(perl, address, port, command, args), inheritFds: [] }),
    close: () => {},
  };
}
