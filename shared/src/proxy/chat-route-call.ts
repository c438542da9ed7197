import type { PassthroughPlan, UpstreamCall } from '../canonical/ports';
import type { CanonicalRequest } from '../canonical/types';
import type { Exchange } from './accounting';
import { readUpstreamTextInTime } from './idle-guard';
import { hasSealed, openSealedReasoning } from './reasoning-flow';
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
  const format = deps.formats[call.format];
  // Translated routes read reasoning the client carried sealed: opened once, on first need.
  let opened: Promise<CanonicalRequest> | undefined;
  const translated = () => {
    opened ??= openSealedReasoning(exchange.request, deps.seal);
    return opened;
  };
  // A passthrough body has seals to take out only where the parser found some: Messages and
  // Responses mark each one (`sealed`); Chat Completions does not mark a seal carried on a
  // tool_call_id, so its body is always looked through. Known once, on first need.
  let restores: boolean | undefined;
  const restoring = () => {
    restores ??= format.reasoningVendor === undefined || hasSealed(exchange.request.messages);
    return restores;
  };
  return {
    serves: () => true,
    async call(route, adapter, span) {
      // Redaction and tool-call inspection work on the canonical request and answer: no
      // passthrough while either applies.
      const reshaping = settings.redaction?.request || settings.redaction?.response || settings.toolPolicy;
      const native = reshaping ? undefined : adapter.nativeCalls?.[call.format];
      const target = await targetFor(route, deps, { model: exchange.model, headers: call.headers });
      let plan: PassthroughPlan | undefined;
      let upstreamCall: UpstreamCall;
      if (native) {
        // Under an alias the answer carries the client's model name, not the upstream's id.
        const clientModel =
          exchange.request.model === route.upstreamModel ? undefined : exchange.request.model;
        plan = format.preparePassthrough(asObject(call.body), { clientModel });
        const body = restoring()
          ? await format.restoreReasoning(plan.body, adapter.reasoningVendor, deps.seal.open)
          : plan.body;
        upstreamCall = native(body, target);
      } else {
        upstreamCall = await adapter.buildRequest(await translated(), target);
      }
      const idleMs = settings.upstreamIdleTimeoutMs;
      const result = await fetchUpstream(deps.fetch, upstreamCall, {
        timeoutMs: settings.upstreamTimeoutMs,
        bodyTimeoutMs: idleMs,
        clientSignal: call.signal,
        now: deps.now,
        deadline: call.timer,
        traceHeaders: span.context ? span.headers() : undefined,
      });
      if (!result.ok) return { ok: false, failed: result };
      if (!result.response.ok) {
        const text = await readUpstreamTextInTime(result.response, idleMs, result.abort, result.deadline);
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
