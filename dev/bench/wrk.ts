/**
 * wrk (C, one thread, pinned) driving dev/bench/wrk/chat.lua: closed loop or a fixed rate, and
 * one BENCH_RESULT line parsed into figures. wrk rather than a Node load generator: it costs a
 * fraction of the CPU, which matters on a machine the stack shares.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { onCleanup } from './cleanup';
import { pinned } from './cpus';
import { resultLine } from './result-line';

const SCRIPT = join(import.meta.dirname, 'wrk', 'chat.lua');

export interface WrkLoad {
  url: string;
  bodyFile: string;
  /** Authorization header value ('' for none). */
  auth: string;
  /** More request headers (a peer gateway's routing headers). */
  headers?: Record<string, string>;
  /** The wrk binary (default: wrk on the PATH). */
  wrk?: string;
  stream: boolean;
  connections: number;
  seconds: number;
  /** Requests per second over all connections; 0 is a closed loop (as fast as answered). */
  rate: number;
  cpus: string | null;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  /** Connect, read and write errors and timeouts. */
  errors: number;
  non2xx: number;
  bytes: number;
}

/** The BENCH_RESULT line of chat.lua (latencies in µs there, ms here). */
export function parseWrkResult(output: string): WrkResult {
  const get = resultLine(output, 'BENCH_RESULT', 'wrk');
  const requests = get('requests');
  const seconds = get('seconds');
  return {
    requests,
    seconds,
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    p50Ms: get('p50_us') / 1000,
    p90Ms: get('p90_us') / 1000,
    p95Ms: get('p95_us') / 1000,
    p99Ms: get('p99_us') / 1000,
    maxMs: get('max_us') / 1000,
    meanMs: get('mean_us') / 1000,
    errors: get('connect_errors') + get('read_errors') + get('write_errors') + get('timeouts'),
    non2xx: get('non2xx'),
    bytes: get('bytes'),
  };
}

/** Runs wrk to its end (killed with the bench on Ctrl-C) and parses its result. */
export function runWrk(load: WrkLoad): Promise<WrkResult> {
  const args = [
    '-t1',
    `-c${load.connections}`,
    `-d${load.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    SCRIPT,
    load.url,
  ];
  const [command, argv] = pinned(load.cpus, load.wrk ?? 'wrk', args);
  const child = spawn(command, argv, {
    env: {
      ...process.env,
      BENCH_BODY_FILE: load.bodyFile,
      BENCH_AUTH: load.auth,
      BENCH_HEADERS: Object.entries(load.headers ?? {})
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n'),
      BENCH_STREAM: load.stream ? '1' : '0',
      BENCH_RATE: String(load.rate),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const forget = onCleanup(() => {
    child.kill('SIGKILL');
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      forget();
      reject(error);
    });
    child.once('exit', (code) => {
      forget();
      if (code !== 0) reject(new Error(`wrk exited with ${code}:\n${output.slice(-2000)}`));
      else resolve(parseWrkResult(output));
    });
  });
}
