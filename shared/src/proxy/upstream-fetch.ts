import type { UpstreamCall } from '../canonical/ports';

export type FetchResult =
  | { ok: true; response: Response; latencyMs: number; abort(reason: string): void }
  | { ok: false; reason: 'timeout' | 'network' | 'client_aborted'; message: string };

export type FetchFailure = Extract<FetchResult, { ok: false }>;

/**
 * One upstream call. The timeout covers the wait for response headers only: a stream that
 * has started may run as long as it needs. The client's signal aborts the call at any time,
 * streaming included, so a departed client stops the upstream spending tokens.
 */
export async function fetchUpstream(
  doFetch: typeof fetch,
  call: UpstreamCall,
  options: { timeoutMs: number; clientSignal?: AbortSignal; now: () => number },
): Promise<FetchResult> {
  const controller = new AbortController();
  const onClientAbort = () => controller.abort(new Error('client went away'));
  if (options.clientSignal?.aborted)
    return { ok: false, reason: 'client_aborted', message: 'client went away' };
  options.clientSignal?.addEventListener('abort', onClientAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('upstream timeout'));
  }, options.timeoutMs);
  const started = options.now();
  try {
    const response = await doFetch(call.url, { ...call.init, signal: controller.signal });
    const abort = (reason: string) => controller.abort(new Error(reason));
    return { ok: true, response, latencyMs: options.now() - started, abort };
  } catch (error) {
    if (options.clientSignal?.aborted)
      return { ok: false, reason: 'client_aborted', message: 'client went away' };
    if (timedOut)
      return { ok: false, reason: 'timeout', message: `no answer within ${options.timeoutMs} ms` };
    return { ok: false, reason: 'network', message: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
