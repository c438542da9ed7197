import { openPortSockets, type PortSockets, type SocketMode } from '../process/port-sockets';
import { type Replicas, startReplicas } from '../process/replicas';
import { findReusePort } from '../process/reuse-port';
import { startWorkerd, type WorkerdOptions, writeWorkerdConfig } from './workerd-process';

export interface WorkerdGatewayOptions extends WorkerdOptions {
  /** How many `workerd serve` processes serve the port (SLUICE_GATEWAY_PROCESSES). */
  processes: number;
  /** SLUICE_GATEWAY_SOCKETS; unset: a socket each for several processes where the system can. */
  sockets?: SocketMode;
}

export interface WorkerdGateway extends Replicas {
  processes: number;
  /** How the processes listen, for the banner. */
  listening: string;
}

/**
 * The gateway on N `workerd serve` processes on one port with no proxy hop: each accepts on
 * its own listening socket (SO_REUSEPORT, the kernel spreading connections evenly), or on one
 * socket this process binds and they all inherit (port-sockets.ts has the trade-off). A process
 * that dies after start-up is restarted (process/replicas.ts) while the others keep serving.
 */
export async function startWorkerdGateway(options: WorkerdGatewayOptions): Promise<WorkerdGateway> {
  const log = (line: string) => console.error(`sluice: ${line}`);
  const sockets = await openPortSockets({
    host: options.host,
    port: options.port,
    processes: options.processes,
    mode: options.sockets,
    reusePort: () => findReusePort(),
    log,
  });
  let replicas: Replicas;
  try {
    const configPath = writeWorkerdConfig(options);
    replicas = startReplicas({
      count: options.processes,
      spawn: (index) =>
        startWorkerd({
          name: options.processes === 1 ? 'gateway' : `gateway-${index + 1}`,
          configPath,
          directory: options.build.directory,
          bindings: options.bindings,
          sockets,
          quiet: options.quiet,
        }),
      log,
    });
  } catch (error) {
    sockets.close();
    throw error;
  }
  return {
    ...replicas,
    processes: options.processes,
    listening: listeningText(sockets),
    async stop() {
      await replicas.stop();
      sockets.close();
    },
  };
}

function listeningText(sockets: PortSockets): string {
  return sockets.mode === 'per-process'
    ? 'a listening socket each (SO_REUSEPORT)'
    : 'one shared listening socket';
}
