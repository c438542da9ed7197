/**
 * The gateway's Redis link (gateway-worker/src/redis-link-object.ts) as the kernel counts it:
 * TCP segments carrying data that the gateway's processes sent to Redis (`ss -ti`,
 * data_segs_out). The link writes each batch at once and a batch is far below the loopback
 * MSS (64 KB), so a segment is one round trip; no proxy sits in the link's path to count.
 */
import { execFileSync } from 'node:child_process';

export function readLinkSegments(pids: ReadonlySet<number>, redisPort: number): number {
  const text = execFileSync('ss', ['-tinpH', 'state', 'established', `( dport = :${redisPort} )`], {
    encoding: 'utf8',
  });
  return linkSegmentsIn(text, pids);
}

/** Sums data_segs_out over the sockets `ss -tinpH` lists for the given processes. */
export function linkSegmentsIn(text: string, pids: ReadonlySet<number>): number {
  let total = 0;
  let owned = false;
  for (const line of text.split('\n')) {
    if (!/^\s/.test(line)) {
      owned = [...line.matchAll(/pid=(\d+)/g)].some((match) => pids.has(Number(match[1])));
      continue;
    }
    if (owned) total += Number(/\bdata_segs_out:(\d+)/.exec(line)?.[1] ?? 0);
  }
  return total;
}
