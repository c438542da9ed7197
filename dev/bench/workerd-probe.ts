/**
 * One fresh `workerd serve` on a config, timed: from spawn to its socket listening (workerd
 * reports it on --control-fd; the worker is compiled and its top level run before that) and to
 * the first answered request. Requests go through node:http with a fresh connection each, not
 * fetch(), whose own first use costs Node tens of milliseconds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { workerdBinary } from '../../self-host/workerd/workerd-process';
import { onCleanup } from './cleanup';
import { pinned } from './cpus';

export interface ProbeStart {
  configPath: string;
  /** workerd's whole environment: the bindings its config reads with fromEnvironment. */
  env: Record<string, string>;
  cpus: string | null;
  extraArgs?: string[];
}

export interface RunningProbe {
  /** ms from spawn until workerd said its socket listens. */
  listenMs: number;
  port: number;
  /** ms since spawn, now. */
  sinceSpawn(): number;
  stop(): Promise<void>;
}

export async function startProbe(start: ProbeStart): Promise<RunningProbe> {
  const args = ['serve', start.configPath, '--control-fd=3', ...(start.extraArgs ?? [])];
  const [command, argv] = pinned(start.cpus, workerdBinary(), args);
  const spawnedAt = performance.now();
  const child: ChildProcess = spawn(command, argv, {
    env: start.env,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const forget = onCleanup(stop);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  try {
    const port = await listened(child, () => stderr);
    const listenMs = performance.now() - spawnedAt;
    return {
      listenMs,
      port,
      sinceSpawn: () => performance.now() - spawnedAt,
      stop: async () => {
        await stop();
        forget();
      },
    };
  } catch (error) {
    await stop();
    forget();
    throw error;
  }
}

/** The port of workerd's `{"event":"listen",...}` control message. */
function listened(child: ChildProcess, stderr: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const control = child.stdio[3] as NodeJS.ReadableStream | null;
    control?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (const line of buffered.split('\n')) {
        if (!line.includes('"listen"')) continue;
        const message = JSON.parse(line) as { port?: number };
        if (message.port) resolve(message.port);
      }
    });
    child.once('exit', (code) => reject(new Error(`workerd exited (${code}) before listening: ${stderr()}`)));
    setTimeout(() => reject(new Error(`workerd did not listen within 30 s: ${stderr()}`)), 30_000).unref();
  });
}

export interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** One request on a new connection, timed until its whole body is in. */
export function timedRequest(
  port: number,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
