import { ACTIVE_REFRESH_MS, type ActiveHandle, httpSamples } from '@sluice/shared/metrics';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { backgroundFor } from '../background';
import type { GatewayEnv } from '../types';

/**
 * Counts every request by method, route pattern (never the raw path, so ids cannot explode the
 * series) and status, with the time to the response headers. Recorded after the response.
 *
 * It also keeps the active gauges: a request is in flight from its arrival until its response
 * is complete, which for a streamed (SSE) response is when the body ends or the client leaves.
 * Scrapes of /metrics are not counted, so every instance reports the same figure.
 */
export function recordHttpMetrics(): MiddlewareHandler<GatewayEnv> {
  return async function recordHttpMetricsMiddleware(c, next) {
    const started = performance.now();
    const metrics = c.get('deps').metrics;
    const background = backgroundFor(c);
    // Samples and gauges join the isolate's write-behind flush; this request keeps a flush
    // alive only when it opened it (nothing here waits for a flush another request keeps).
    const request = c.req.path === '/metrics' ? null : metrics.start('requests', background);
    let streaming = false;
    try {
      await next();
      const body = c.res.body;
      if (request && body && c.res.headers.get('content-type')?.startsWith('text/event-stream')) {
        const stream = metrics.start('streams', background);
        const ends = c.get('bodyEnds');
        // A route that watches its own body says when it ends; otherwise watch it here.
        if (ends) background(whileStreaming(ends, stream, request));
        else c.res = new Response(untilBodyEnds(body, stream, request), c.res);
        streaming = true;
      }
    } finally {
      if (request && !streaming) void request.end();
      // The route that answered (a middleware's pattern, such as /v1/*, when one refused first).
      const answered = routePath(c);
      const endpoint = answered === '/*' || answered === '*' || answered === '' ? 'unmatched' : answered;
      const seconds = (performance.now() - started) / 1000;
      const { method } = c.req;
      const { status } = c.res;
      void metrics.recordLater(() => httpSamples(method, endpoint, status, seconds), background);
    }
  };
}

/** Ends both handles when the body ends, republishing the counts meanwhile for a long stream. */
function whileStreaming(
  ends: Promise<unknown>,
  stream: ActiveHandle,
  request: ActiveHandle,
): Promise<unknown> {
  const fresh = setInterval(() => void request.touch(), ACTIVE_REFRESH_MS);
  return ends.finally(() => {
    clearInterval(fresh);
    void stream.end();
    void request.end();
  });
}

/**
 * The same body, ending both handles when it is done, fails or is cancelled (a cancel is
 * passed on, so the proxy still sees the client leave). Each chunk may republish the counts
 * so a long stream keeps its isolate's figures fresh.
 */
function untilBodyEnds(
  body: ReadableStream<Uint8Array>,
  stream: ActiveHandle,
  request: ActiveHandle,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const end = () => {
    void stream.end();
    void request.end();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
          return;
        }
        void request.touch();
        controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}
