import { openListenSocket } from '../process/listen-socket';
import { type Replicas, startReplicas } from '../process/replicas';
import { startWorkerd, type WorkerdOptions, writeWorkerdConfig } from './workerd-process';

export interface WorkerdGatewayOptions extends WorkerdOptions {
  /** How many `workerd serve` processes share the port (SLUICE_GATEWAY_PROCESSES). */
  processes: number;
}

export interface WorkerdGateway extends Replicas {
  processes: number;
}

/**
 * The gateway on N `workerd serve` processes with one listening socket between them: this
 * process binds it and each workerd accepts from it (--socket-fd), so there is no proxy hop
 * and the kernel hands each connection to whichever process takes it first. A process that
 * dies after start-up is restarted (process/replicas.ts) while the others keep serving; the
 * socket stays open meanwhile, so connections wait in its backlog rather than being refused.
 */
export async function startWorkerdGateway(options: WorkerdGatewayOptions): Promise<WorkerdGateway> {
  const socket = await openListenSocket(options.host, options.port);
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
          listenFd: socket.fd,
          quiet: options.quiet,
        }),
      log: (line) => console.error(`sluice: ${line}`),
    });
  } catch (error) {
    socket.close();
    throw error;
  }
  return {
    ...replicas,
    processes: options.processes,
    async stop() {
      await replicas.stop();
      socket.close();
    },
  };
}
