import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { findExecutable } from './executables';

/** The launcher that gives a process a SO_REUSEPORT socket of its own (see the file). */
const LAUNCHER = fileURLToPath(new URL('./listen-then-exec.pl', import.meta.url));

export type ReusePortSupport = { ok: true; perl: string } | { ok: false; reason: string };

/**
 * Whether each process can listen on the port with a socket of its own that the kernel
 * balances: Linux (BSD and macOS accept SO_REUSEPORT but do not spread connections over the
 * sockets) and a perl whose Socket module knows the option, found on PATH.
 */
export function findReusePort(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): ReusePortSupport {
  if (platform !== 'linux') return { ok: false, reason: `${platform} does not balance SO_REUSEPORT sockets` };
  const perl = findExecutable('perl', env.PATH ?? '');
  if (!perl) return { ok: false, reason: 'no perl on PATH to open them' };
  const probe = spawnSync(perl, ['-MSocket=SO_REUSEPORT', '-e', '1'], { stdio: 'ignore', timeout: 10_000 });
  if (probe.status !== 0) return { ok: false, reason: `${perl} has no SO_REUSEPORT` };
  return { ok: true, perl };
}

/**
 * The command that starts `command args` with a listening socket of its own on
 * `address:port` as its fd 3: the launcher binds it and execs the command, so the process the
 * caller supervises is the command itself (same pid, same signals).
 */
export function listenThenExec(
  perl: string,
  address: string,
  port: number,
  command: string,
  args: string[],
): { command: string; args: string[] } {
  return { command: perl, args: [LAUNCHER, address, String(port), command, ...args] };
}

/**
 * Fails, as a shared socket's bind would, when anything listens on the port already. Sockets
 * with SO_REUSEPORT of the same user would otherwise join another process's group on that port
 * (a second stack started on it) and share its connections instead of failing.
 */
export function assertPortFree(address: string, port: number, shown: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      const meaning = code === 'EADDRINUSE' ? ' (address already in use)' : '';
      reject(new Error(`cannot bind ${shown}: ${code}${meaning}`));
    });
    probe.listen({ host: address, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
