/**
 * The closed-loop load: wrk with one thread (C, a small share of its core next to the fake
 * upstream) on CONNS connections, each sending its next request as soon as the answer is in.
 * Throughput is what the target manages at saturation.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { onCleanup } from '../../dev/bench/cleanup';
import { pinned } from '../../dev/bench/cpus';
import { resultLine } from '../../dev/bench/result-line';
import type { LoadResult, PeerRequest } from './request';

const SCRIPT = join(import.meta.dirname, 'chat.lua');

export function closedLoop(
  request: PeerRequest,
  opts: { connections: number; seconds: number; cpus: string | null; wrk: string },
): Promise<LoadResult> {
  const args = [
    '-t1',
    `-c${opts.connections}`,
    `-d${opts.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    SCRIPT,
    request.url,
  ];
  const [command, argv] = pinned(opts.cpus, opts.wrk, args);
  const child = spawn(command, argv, {
    env: {
      ...process.env,
      PEER_BODY_FILE: request.bodyFile,
      PEER_HEADERS: Object.entries(request.headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n'),
      PEER_STREAM: request.stream ? '1' : '0',
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
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${output.slice(-2000)}`));
      try {
        const get = resultLine(output, 'PEER_RESULT', 'wrk');
        const requests = get('requests');
        const seconds = get('seconds');
        resolve({
          requests,
          seconds,
          requestsPerSecond: seconds > 0 ? requests / seconds : 0,
          p50Ms: get('p50_us') / 1000,
          p95Ms: get('p95_us') / 1000,
          p99Ms: get('p99_us') / 1000,
          maxMs: get('max_us') / 1000,
          errors: get('errors'),
          non2xx: get('non2xx'),
          sendLagP99Ms: null,
        });
      } catch (error) {
        reject(error);
      }
    });
  });
}
