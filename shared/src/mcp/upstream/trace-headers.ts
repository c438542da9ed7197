/**
 * A fetch that adds the call's trace context (traceparent, tracestate) to every request of
 * one upstream connection: the connection is opened for one call, so all of it is that
 * call's span's.
 */
export function withTraceHeaders(
  base: typeof fetch,
  trace: Record<string, string> | undefined,
): typeof fetch {
  if (!trace || Object.keys(trace).length === 0) return base;
  return ((input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const [name, value] of Object.entries(trace)) headers.set(name, value);
    return base(input, { ...init, headers });
  }) as typeof fetch;
}

/** The trace context as MCP carries it in a request's `_meta` (SEP-414). */
export function traceMeta(trace: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!trace?.traceparent) return undefined;
  return trace.tracestate
    ? { traceparent: trace.traceparent, tracestate: trace.tracestate }
    : { traceparent: trace.traceparent };
}
