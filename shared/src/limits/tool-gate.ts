import { StoreUnavailableError } from '../stores/breaker';
import type { ScriptRun } from '../stores/lua-script';
import { type CounterTemplate, periodTemplate, slidingTemplate } from './counter-templates';
import { type Counter, LIMIT_KEY_PREFIX, type Scope } from './counters';
import type { LimitSubject, SubjectLimits } from './definitions';
import { checkCounters, toRetryAfterSeconds } from './sliding-window';
import { accessNameOf, type ToolLimitDef, type ToolRef, toolPatternMatches } from './tool-limits';

/**
 * Admission of an MCP tool call against the caller's tool limits (tool-limits.ts): the key's own
 * and its owner's, each on counters of its own scope, checked and counted in one CHECK script
 * call (all pass and each counts 1, or nothing is counted), so the count is exact across
 * gateways as for model requests. A call that no limit covers makes no Redis call at all.
 *
 * Counters: sluice:rl:{key|user}:{id}:tool:{pattern}:{window}     a rate's sliding window
 *           sluice:rl:{key|user}:{id}:tool:{pattern}:{period id}  a budget's calendar period
 * The window or period id is the last segment and never holds a colon, so no two patterns share one.
 */
export type ToolAdmission =
  | { ok: true }
  | {
      ok: false;
      /** The limit that frees last, e.g. `user:tool_calls/1m:github__*`. */
      label: string;
      retryAfterSeconds: number;
      /** When the call would fit again (an ISO instant); null when the counters could not be asked. */
      resetsAt: string | null;
    };

export interface ToolAdmitAsk {
  subject: LimitSubject;
  tool: ToolRef;
  nowMs: number;
  /** rate_limit_fail_closed: refuse rather than pass when limits or counters cannot be read. */
  failClosed: boolean;
}

export interface ToolGate {
  admit(ask: ToolAdmitAsk): Promise<ToolAdmission>;
}

export interface ToolGateDeps {
  /** One script call, with the caller's deadline. */
  run: ScriptRun;
  /** The caller's limits, as the isolate caches them (loaded with the model limits). */
  limitsOf(subject: LimitSubject): Promise<SubjectLimits>;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** Retry-After of a fail-closed refusal, as for model requests. */
export const TOOL_LIMITS_UNAVAILABLE_RETRY_SECONDS = 30;

/** What a limit is called in refusals and in GET /v1/usage. */
export function toolLimitLabel(scope: Scope, def: ToolLimitDef): string {
  return def.kind === 'rate'
    ? `${scope}:tool_calls/${def.window}:${def.tool}`
    : `${scope}:tool_budget/${def.period}:${def.tool}`;
}

/** One limit's counter template; `cost` 1 to count a call, 0 to read. */
export function toolLimitTemplate(
  scope: Scope,
  id: string,
  def: ToolLimitDef,
  cost: number,
): CounterTemplate {
  const base = `${LIMIT_KEY_PREFIX}:${scope}:${id}:tool:${def.tool}:`;
  const label = toolLimitLabel(scope, def);
  if (def.kind === 'rate') {
    return slidingTemplate({
      label,
      key: `${base}${def.window}`,
      window: def.window,
      limit: def.limit,
      cost,
      meta: { scope, role: 'rule', kind: 'requests', window: def.window },
    });
  }
  return periodTemplate({
    label,
    keyPrefix: base,
    period: def.period,
    limit: def.limit,
    cost,
    meta: { scope, role: 'budget', kind: 'requests', window: def.period, windowSecs: null },
  });
}

/** Each scope's tool limits with the id its counters are kept under. */
export function toolScopes(
  subject: LimitSubject,
  limits: SubjectLimits,
): Array<{ scope: Scope; id: string; defs: ToolLimitDef[] }> {
  const scopes: Array<{ scope: Scope; id: string; defs: ToolLimitDef[] }> = [];
  const tools = limits.tools;
  if (!tools) return scopes;
  if (subject.keyId !== null && tools.key && tools.key.length > 0)
    scopes.push({ scope: 'key', id: subject.keyId, defs: tools.key });
  if (tools.user.length > 0) scopes.push({ scope: 'user', id: subject.userId, defs: tools.user });
  return scopes;
}

/** Templates per definitions object and tool: worked out once, reused call after call. */
const plans = new WeakMap<SubjectLimits, { subject: LimitSubject; byTool: Map<string, CounterTemplate[]> }>();

/** The counters a call of `tool` counts on, at nowMs; [] when no limit covers it. */
export function toolCallCounters(
  subject: LimitSubject,
  limits: SubjectLimits,
  tool: ToolRef,
  nowMs: number,
): Counter[] {
  let plan = plans.get(limits);
  if (!plan || plan.subject.keyId !== subject.keyId || plan.subject.userId !== subject.userId) {
    plan = { subject, byTool: new Map() };
    plans.set(limits, plan);
  }
  const name = accessNameOf(tool);
  let templates = plan.byTool.get(name);
  if (!templates) {
    templates = toolScopes(subject, limits).flatMap(({ scope, id, defs }) =>
      defs
        .filter((def) => toolPatternMatches(def.tool, tool))
        .map((def) => toolLimitTemplate(scope, id, def, 1)),
    );
    plan.byTool.set(name, templates);
  }
  return templates.map((t) => t.at(nowMs));
}

export function createToolGate(deps: ToolGateDeps): ToolGate {
  const unavailable = (label: string): ToolAdmission => ({
    ok: false,
    label,
    retryAfterSeconds: TOOL_LIMITS_UNAVAILABLE_RETRY_SECONDS,
    resetsAt: null,
  });
  return {
    async admit({ subject, tool, nowMs, failClosed }) {
      let limits: SubjectLimits;
      try {
        limits = await deps.limitsOf(subject);
      } catch (error) {
        deps.warn('tool limits could not be loaded', { error: String(error), failClosed });
        return failClosed ? unavailable('limits_unavailable') : { ok: true };
      }
      const counters = toolCallCounters(subject, limits, tool, nowMs);
      if (counters.length === 0) return { ok: true };
      try {
        const check = await checkCounters(deps.run, counters, nowMs);
        if (check.allowed) return { ok: true };
        return {
          ok: false,
          label: check.refusedBy,
          retryAfterSeconds: toRetryAfterSeconds(check.retryAfterMs),
          resetsAt: new Date(nowMs + check.retryAfterMs).toISOString(),
        };
      } catch (error) {
        // While the breaker holds Redis for down it has said so once; a warning per call would not help.
        if (!(error instanceof StoreUnavailableError))
          deps.warn('tool limit counters unavailable', { error: String(error), failClosed });
        return failClosed ? unavailable('rate_limiter_unavailable') : { ok: true };
      }
    },
  };
}

/** A tool limit as GET /v1/usage lists it. */
export interface ToolLimitUsage {
  scope: Scope;
  tool: string;
  kind: ToolLimitDef['kind'];
  /** The sliding window of a rate, the calendar period of a budget. */
  window: string;
  window_secs: number | null;
  limit: number;
  used: number;
  /** The end of a budget's period; null for a sliding window. */
  resets_at: string | null;
}

/** Every tool limit of the caller with its read-only counter (cost 0), at nowMs. */
export function toolUsageReads(
  subject: LimitSubject,
  limits: SubjectLimits,
  nowMs: number,
): Array<{ counter: Counter; def: ToolLimitDef; scope: Scope }> {
  return toolScopes(subject, limits).flatMap(({ scope, id, defs }) =>
    defs.map((def) => ({ counter: toolLimitTemplate(scope, id, def, 0).at(nowMs), def, scope })),
  );
}

export function toToolLimitUsage(
  read: { counter: Counter; def: ToolLimitDef; scope: Scope },
  used: number,
): ToolLimitUsage {
  const { counter, def, scope } = read;
  return {
    scope,
    tool: def.tool,
    kind: def.kind,
    window: def.kind === 'rate' ? def.window : def.period,
    window_secs: counter.meta.windowSecs,
    limit: def.limit,
    used,
    resets_at: counter.meta.resetsAt,
  };
}
