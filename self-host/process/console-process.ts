import { join } from 'node:path';
import { type Child, spawnChild } from './children';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ConsoleProcessOptions {
  port: number;
  host: string;
  /** The apps' environment (stores, bridge endpoints, secrets); added to the supervisor's own. */
  env: Record<string, string>;
  quiet: boolean;
}

/** The console on Node, run from source through tsx (`console-server/src/main.ts`). */
export function spawnConsole(options: ConsoleProcessOptions): Child {
  return spawnChild(
    'console',
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'console-server/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...options.env,
        SLUICE_CONSOLE_PORT: String(options.port),
        SLUICE_CONSOLE_HOST: options.host,
        FORCE_COLOR: '0',
      },
      quiet: options.quiet,
    },
  );
}
