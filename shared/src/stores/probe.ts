/**
 * Runs a store probe with a deadline and reports its latency, or null when the store did not
 * answer in time or failed. Health endpoints use it; it never throws.
 */
export async function probeLatency(probe: () => Promise<unknown>, timeoutMs: number): Promise<number | null> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('probe timed out')), timeoutMs);
  });
  try {
    await Promise.race([probe(), deadline]);
    return Math.round((performance.now() - started) * 100) / 100;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

export type Readiness = { status: 'ready' } | { status: 'not_ready'; reason: string };

/**
 * `/health/ready` of both apps: ready when Postgres and Redis both answer within `timeoutMs`,
 * else what does not (`database unreachable; cache unreachable`).
 */
export async function readiness(
  probes: { database: () => Promise<unknown>; cache: () => Promise<unknown> },
  timeoutMs: number,
): Promise<Readiness> {
  const [pg, redis] = await Promise.all([
    probeLatency(probes.database, timeoutMs),
    probeLatency(probes.cache, timeoutMs),
  ]);
  const down = [
    pg === null ? 'database unreachable' : null,
    redis === null ? 'cache unreachable' : null,
  ].filter((reason): reason is string => reason !== null);
  return down.length > 0 ? { status: 'not_ready', reason: down.join('; ') } : { status: 'ready' };
}
