import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort } from './ports';

const require = createRequire(import.meta.url);
const ROOT = join(import.meta.dirname, '..', '..');

export interface Child {
  name: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function prefixOutput(child: ChildProcess, name: string, quiet: boolean): void {
  const forward = (stream: NodeJS.ReadableStream | null, target: NodeJS.WriteStream) => {
    let pending = '';
    stream?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      if (quiet) return;
      for (const line of lines) if (line.trim()) target.write(`[${name}] ${line}\n`);
    });
  };
  forward(child.stdout, process.stdout);
  forward(child.stderr, process.stderr);
}

function track(name: string, child: ChildProcess, quiet: boolean): Child {
  prefixOutput(child, name, quiet);
  return {
    name,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        // Negative pid: the child's whole process group (wrangler runs workerd beneath it).
        try {
          process.kill(-(child.pid ?? 0), 'SIGTERM');
        } catch {
          child.kill('SIGTERM');
        }
      }),
  };
}

/** `wrangler dev` for the gateway worker; vars go through an env file, not the command line. */
export async function spawnGateway(options: {
  port: number;
  vars: Record<string, string>;
  runDir: string;
  quiet: boolean;
}): Promise<Child> {
  mkdirSync(options.runDir, { recursive: true });
  const envFile = join(options.runDir, `gateway-${options.port}.env`);
  const lines = Object.entries(options.vars).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  writeFileSync(envFile, `${lines.join('\n')}\n`, { mode: 0o600 });
  const wrangler = require.resolve('wrangler/bin/wrangler.js');
  const args = [
    wrangler,
    'dev',
    '--config',
    join(ROOT, 'wrangler.toml'),
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--inspector-port',
    String(await freePort()),
    '--env-file',
    envFile,
    '--persist-to',
    join(options.runDir, `wrangler-${options.port}`),
    '--show-interactive-dev-session=false',
    '--log-level',
    'warn',
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // No outbound calls for telemetry or the Request.cf cache: local dev must work offline.
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      NO_D1_WARNING: 'true',
      FORCE_COLOR: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return track('gateway', child, options.quiet);
}

/** The console on Node, run from source through tsx. */
export function spawnConsole(options: { port: number; env: Record<string, string>; quiet: boolean }): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'console-server/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...options.env, SLUICE_CONSOLE_PORT: String(options.port), FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return track('console', child, options.quiet);
}
