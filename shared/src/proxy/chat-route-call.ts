import type { UpstreamCall } from '../canonical/ports';
import type { Exchange } from './accounting';
import { readBodyWithin } from './idle-guard';
import { type RouteCaller, targetFor } from './route-attempts';
import type { Attempt, ProxyCall, ProxyDeps, ProxySettings } from './types';
import { fetchUpstream } from './upstream-fetch';

/** A chat route's answer before the walk says which route and attempt it was. */
export type ChatAnswer = Omit<Attempt, 'route' | 'attempts'>;

/**
 * How the chat endpoints call a route: the client's body passed through when the vendor
 * speaks the client's format, else the canonical request translated for it. Every provider
 * type serves chat.
 */
export function chatRouteCaller(
  exchange: Exchange,
  call: ProxyCall,
  deps: ProxyDeps,
  settings: ProxySettings,
): RouteCaller<ChatAnswer> {
  return {
    serves: () => true,
    async call(route, adapter) {
      // Redaction and tool-call inspection work on the canonical request and answer: no
      // passthrough while either applies.
      const reshaping = settings.redaction?.request || settings.redaction?.response || settings.toolPolicy;
      const native = reshaping ? undefined : adapter.nativeCalls?.[call.format];
      const plan = native ? deps.formats[call.format].preparePassthrough(asObject(call.body)) : undefined;
      const target = await targetFor(route, deps);
      const upstreamCall: UpstreamCall =
        native && plan ? native(plan.body, target) : await adapter.buildRequest(exchange.request, target);
      const idleMs = settings.upstreamIdleTimeoutMs;
      const result = await fetchUpstream(deps.fetch, upstreamCall, {
        timeoutMs: settings.upstreamTimeoutMs,
        bodyTimeoutMs: idleMs,
        clientSignal: call.signal,
        now: deps.now,
        deadline: call.timer,
      });
      if (!result.ok) return { ok: false, failed: result };
      if (!result.response.ok) {
        const text = await readBodyWithin(result.response, idleMs, result.abort, result.deadline);
        return { ok: false, refused: adapter.mapError(result.response.status, text ?? '') };
      }
      const value: ChatAnswer = {
        upstream: result.response,
        mode: native ? 'native' : 'translate',
        adapter,
        upstreamLatencyMs: result.latencyMs,
        plan,
        abortUpstream: result.abort,
        deadline: result.deadline,
      };
      return { ok: true, value };
    },
  };
}

function asObject(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}
