/**
 * The closed-loop load: wrk with one thread (C, a small share of its core next to the fake
 * upstream) on CONNS connections, each sending its next request as soon as the answer is in.
 * Throughput is what the target manages at saturation. The same wrk runner and script as
 * `npm run bench` (dev/bench/wrk.ts), with the target's own headers.
 */
import { runWrk } from '../../dev/bench/wrk';
import type { LoadResult, PeerRequest } from './request';

export async function closedLoop(
  request: PeerRequest,
  opts: { connections: number; seconds: number; cpus: string | null; wrk: string },
): Promise<LoadResult> {
  const result = await runWrk({
    url: request.url,
    bodyFile: request.bodyFile,
    auth: '',
    headers: request.headers,
    stream: request.stream,
    connections: opts.connections,
    seconds: opts.seconds,
    rate: 0,
    cpus: opts.cpus,
    wrk: opts.wrk,
  });
  return {
    requests: result.requests,
    seconds: result.seconds,
    requestsPerSecond: result.requestsPerSecond,
    p50Ms: result.p50Ms,
    p95Ms: result.p95Ms,
    p99Ms: result.p99Ms,
    maxMs: result.maxMs,
    errors: result.errors,
    non2xx: result.non2xx,
    sendLagP99Ms: null,
  };
}
