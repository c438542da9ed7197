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
