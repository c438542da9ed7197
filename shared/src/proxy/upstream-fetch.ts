import type { UpstreamCall } from '../canonical/ports';
import { type CallDeadline, createCallDeadline } from '../util/call-deadline';

export type FetchResult =
  | {
      ok: true;
      response: Response;
      latencyMs: number;
      abort(reason: string): void;
      /** The call's timer, paused: readUpstreamTextInTime takes it for the body, a stream stops it. */
      deadline: CallDeadline;
    }
  | { ok: false; reason: 'timeout' | 'network' | 'client_aborted'; message: string };

export type FetchFailure = Extract<FetchResult, { ok: false }>;

/**
 * One upstream call. The timeout covers the wait for response headers only: a stream that
 * has started may run as long as it needs. The client's signal aborts the call at any time,
 * streaming included, so a departed client stops the upstream spending tokens.
 * `bodyTimeoutMs` is the wait the caller will give the body (readUpstreamTextInTime), so that one
 * timer serves both (call-deadline.ts).
 */
export async function fetchUpstream(
  doFetch: typeof fetch,
  call: UpstreamCall,
  options: {
    timeoutMs: number;
    bodyTimeoutMs?: number;
    clientSignal?: AbortSignal;
    now: () => number;
    /** The request's timer when it has one (ProxyCall.timer); else the call's own. */
    deadline?: CallDeadline;
    /** The attempt's trace context (traceparent, tracestate), added to the call's headers. */
    traceHeaders?: Record<string, string>;
  },
): Promise<FetchResult> {
  const controller = new AbortController();
  const onClientAbort = () => controller.abort(new Error('client went away'));
  if (options.clientSignal?.aborted)
    return { ok: false, reason: 'client_aborted', message: 'client went away' };
  options.clientSignal?.addEventListener('abort', onClientAbort, { once: true });
  let timedOut = false;
  const deadline = options.deadline ?? createCallDeadline();
  const expire = () => {
    timedOut = true;
    controller.abort(new Error('upstream timeout'));
  };
  deadline.set(options.timeoutMs, expire, options.bodyTimeoutMs);
  const started = options.now();
  try {
    const headers = options.traceHeaders
      ? { ...call.init.headers, ...options.traceHeaders }
      : call.init.headers;
    const response = await doFetch(call.url, { ...call.init, headers, signal: controller.signal });
    deadline.pause();
    const abort = (reason: string) => controller.abort(new Error(reason));
    return { ok: true, response, latencyMs: options.now() - started, abort, deadline };
  } catch (error) {
    deadline.stop();
    if (options.clientSignal?.aborted)
      return { ok: false, reason: 'client_aborted', message: 'client went away' };
    if (timedOut)
      return { ok: false, reason: 'timeout', message: `no answer within ${options.timeoutMs} ms` };
    return { ok: false, reason: 'network', message: error instanceof Error ? error.message : String(error) };
  }
}
