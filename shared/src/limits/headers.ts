import type { Counter } from './counters';
import type { SlidingWindowState } from './sliding-window';

interface Tightest {
  limit: number;
  left: number;
  resetMs: number;
}

/**
 * x-ratelimit-* headers (the names OpenAI's API uses) for the tightest request limit and the
 * tightest token limit that admitted a request. Usage counters carry no limit and are left out.
 */
export function rateLimitHeaders(counters: Counter[], states: SlidingWindowState[]): Record<string, string> {
  let requests: Tightest | null = null;
  let tokens: Tightest | null = null;
  for (let i = 0; i < counters.length; i++) {
    const c = counters[i] as Counter;
    const state = states[i];
    if (!state || c.meta.role === 'usage') continue;
    const left = Math.max(0, c.limit - state.used);
    if (c.meta.kind === 'requests') {
      if (!requests || left < requests.left) requests = { limit: c.limit, left, resetMs: state.resetMs };
    } else if (!tokens || left < tokens.left) {
      tokens = { limit: c.limit, left, resetMs: state.resetMs };
    }
  }
  const headers: Record<string, string> = {};
  if (requests) put(headers, 'requests', requests);
  if (tokens) put(headers, 'tokens', tokens);
  return headers;
}

function put(headers: Record<string, string>, kind: 'requests' | 'tokens', t: Tightest): void {
  headers[`x-ratelimit-limit-${kind}`] = String(t.limit);
  headers[`x-ratelimit-remaining-${kind}`] = String(t.left);
  headers[`x-ratelimit-reset-${kind}`] = `${Math.ceil(t.resetMs / 1000)}s`;
}
