/**
 * The fixed-rate load, for latency at a rate every target sustains (LAT_RATE, 200 req/s).
 *
 * Method: an open loop. Request i is sent at start + i / rate whatever happened to the earlier
 * ones, each on a free keep-alive connection of a pool of at most LAT_CONNS, so a slow answer
 * does not hold back the requests scheduled after it (a closed loop such as wrk's sends fewer
 * requests while the target is slow and so under-reports its slow moments: coordinated
 * omission). wrk has no rate limit of its own and wrk2 is not packaged, hence this small Node
 * generator; at 200 req/s it needs a few per cent of the load core.
 *
 * Send times come from setTimeout, which fires up to about a millisecond late; each send's time
 * is computed from the start, so lateness never accumulates into a lower rate. Latency is timed
 * from the moment the request is handed to Node's HTTP client until the last byte of the answer
 * (a stream's `data: [DONE]` included), so timer lateness is not in it; how late the sends left
 * is reported beside it (send lag p99), and a run whose load core was busy shows there. Every
 * target is measured by the same client, so its own cost (tens of µs) cancels out of "p50 added
 * over nginx". One second at the same rate, not recorded, opens the connections first.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { LoadResult, PeerRequest } from './request';

type Outcome = { ms: number; status: number } | { error: string };

export async function openLoop(
  request: PeerRequest,
  opts: { rate: number; seconds: number; connections: number },
): Promise<LoadResult> {
  const body = readFileSync(request.bodyFile);
  const url = new URL(request.url);
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: opts.connections,
    maxFreeSockets: opts.connections,
    scheduling: 'lifo',
  });
  const headers = {
    ...request.headers,
    'content-type': 'application/json',
    accept: request.stream ? 'text/event-stream' : 'application/json',
    'content-length': String(body.length),
  };
  const send = (): Promise<Outcome> =>
    new Promise((resolve) => {
      const started = performance.now();
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers,
          timeout: 10_000,
        },
        (res) => {
          res.once('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
          res.once('error', (error) => resolve({ error: error.message }));
          res.resume();
        },
      );
      req.once('timeout', () => req.destroy(new Error('timeout')));
      req.once('error', (error) => resolve({ error: error.message }));
      req.end(body);
    });
  try {
    await onSchedule(opts.rate, Math.min(opts.seconds, 1), send);
    const run = await onSchedule(opts.rate, opts.seconds, send);
    return summarize(run.outcomes, run.lagsMs, run.seconds);
  } finally {
    agent.destroy();
  }
}

/** Calls `send` rate × seconds times at fixed times from now and waits for every outcome. */
async function onSchedule(
  rate: number,
  seconds: number,
  send: () => Promise<Outcome>,
): Promise<{ outcomes: Outcome[]; lagsMs: number[]; seconds: number }> {
  const total = Math.max(1, Math.round(rate * seconds));
  const intervalMs = 1000 / rate;
  const pending: Promise<Outcome>[] = [];
  const lagsMs: number[] = [];
  const start = performance.now();
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      while (pending.length < total && start + pending.length * intervalMs <= now) {
        lagsMs.push(now - (start + pending.length * intervalMs));
        pending.push(send());
      }
      if (pending.length === total) return done();
      setTimeout(tick, start + pending.length * intervalMs - now);
    };
    tick();
  });
  // The sends spanned (total - 1) intervals; the run is counted as total intervals long.
  const elapsedS = (performance.now() - start) / 1000;
  const outcomes = await Promise.all(pending);
  return { outcomes, lagsMs, seconds: Math.max(elapsedS, (total * intervalMs) / 1000) };
}

/** The nearest-rank percentile of ascending values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

function summarize(outcomes: Outcome[], lagsMs: number[], seconds: number): LoadResult {
  const answered = outcomes.filter((o): o is { ms: number; status: number } => 'ms' in o);
  const ms = answered.map((o) => o.ms).sort((a, b) => a - b);
  const lags = [...lagsMs].sort((a, b) => a - b);
  return {
    requests: answered.length,
    seconds,
    requestsPerSecond: answered.length / seconds,
    p50Ms: percentile(ms, 50),
    p95Ms: percentile(ms, 95),
    p99Ms: percentile(ms, 99),
    maxMs: ms.at(-1) ?? Number.NaN,
    errors: outcomes.length - answered.length,
    non2xx: answered.filter((o) => o.status < 200 || o.status > 299).length,
    sendLagP99Ms: percentile(lags, 99),
  };
}
