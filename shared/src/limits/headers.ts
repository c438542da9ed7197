import type { Counter } from './counters';
import type { SlidingWindowState } from './sliding-window';

/**
 * x-ratelimit-* headers (the names OpenAI's API uses) for the tightest request limit and the
 * tightest token limit that admitted a request. Usage counters carry no limit and are left out.
 */
export function rateLimitHeaders(counters: Counter[], states: SlidingWindowState[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const kind of ['requests', 'tokens'] as const) {
    let tightest: { limit: number; left: number; resetMs: number } | null = null;
    counters.forEach((c, i) => {
      const state = states[i];
      if (!state || c.meta.role === 'usage' || c.meta.kind !== kind) return;
      const left = Math.max(0, c.limit - state.used);
      if (!tightest || left < tightest.left) tightest = { limit: c.limit, left, resetMs: state.resetMs };
    });
    const t = tightest as { limit: number; left: number; resetMs: number } | null;
    if (!t) continue;
    headers[`x-ratelimit-limit-${kind}`] = String(t.limit);
    headers[`x-ratelimit-remaining-${kind}`] = String(t.left);
    headers[`x-ratelimit-reset-${kind}`] = `${Math.ceil(t.resetMs / 1000)}s`;
  }
  return headers;
}
