import type { VersionBoard } from '../runtime/version-board';
import { StoreUnavailableError } from '../stores/breaker';
import type { ScriptCall } from '../stores/lua-script';
import type { Background } from '../util/background';
import type { CallDeadline } from '../util/call-deadline';
import { type AdmissionAnswer, type AdmissionAsk, admissionCall, readAdmission } from './admission-call';
import {
  type BudgetThresholds,
  budgetHeaders,
  DEFAULT_BUDGET_THRESHOLDS,
  type TightestBudget,
  tightestBudget,
} from './budget-status';
import { admissionCounters, type Counter, scopesOf } from './counters';
import { isEmpty, type LimitSubject, type SubjectLimits } from './definitions';
import { rateLimitHeaders } from './headers';
import { reservedOn } from './reservation';
import {
  type RouteCapDecision,
  type RouteCapInput,
  type RouteCapLabel,
  routeCapCounters,
} from './route-caps';
import { type CounterAddition, type CounterCheck, toRetryAfterSeconds } from './sliding-window';

/**
 * The gateway's admission of a model request: one round trip before the upstream call (the
 * limits of docs/limits.md; docs/architecture.md, The hot path). Definitions come from the
 * isolate; the round trip checks the isolate's cache versions, every limit of the key and its
 * owner, reads the response cache and checks the caps of the first route, all in ADMIT_SCRIPT.
 * Repeat offenders are refused from memory until the instant their limit frees, or until their
 * definitions change: the versions are read for them at most once a second (a raised limit
 * reaches a refused caller within that; a lowered one holds on the very next request, as every
 * admission checks them).
 */
export interface GateAsk {
  subject: LimitSubject;
  /** The first route the request will try, for its caps; null when it has none to check. */
  route: RouteCapInput | null;
  cacheKey: string | null;
  failClosed: boolean;
  /** False after the caches were reloaded twice in a row: admit on what is loaded. */
  checkVersions: boolean;
  nowMs: number;
  background: Background;
  /** Where a budget turns warning and critical (settings; their defaults when not given). */
  thresholds?: BudgetThresholds;
  /** Weighted tokens the request may use, reserved on token rules and budgets (reservation.ts). */
  reserveTokens?: number;
  /** The request's timer, for its wait on a shared round trip (runtime/coalescer.ts). */
  timer?: CallDeadline;
}

export type FirstRouteCheck = RouteCapDecision | 'unchecked';

export type GateDecision =
  /** The isolate's caches were out of date and have been dropped: load again and re-ask. */
  | { kind: 'stale'; moved: string[] }
  | { kind: 'refused'; label: string; retryAfterSeconds: number }
  | {
      kind: 'admitted';
      headers: Record<string, string>;
      /** The user's team names, from the limits admitted on (none when they could not load). */
      teams?: string[];
      firstRoute: FirstRouteCheck;
      /** The response cache entry as stored; null on a miss, or when not asked. */
      cached: string | null;
      /** The budget nearest its limit, as counted before this request; null without budgets. */
      budget: TightestBudget | null;
      /** What this request reserved; the settlement gives it back (reservation.ts). */
      reserved: CounterAddition[];
    };

export interface GateDeps {
  run(call: ScriptCall, keepAlive?: Background, timer?: CallDeadline): Promise<unknown>;
  board: VersionBoard;
  limitsOf(subject: LimitSubject, background: Background): Promise<SubjectLimits>;
  /** Counted in /metrics (sluice_rate_limited_total). */
  onRefusal(label: string): void;
  /**
   * Redis lost its data (ADMIT found no epoch mark): rebuild the calendar counters from the
   * request log, or mark a first start, before anything is counted (counter-rebuild.ts).
   * Shared by every request of the isolate; rejects when it could not be done in time. Absent:
   * the epoch is not checked.
   */
  anchorCounters?(): Promise<void>;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface Gate {
  admit(ask: GateAsk): Promise<GateDecision>;
}

/**
 * Retry-After of a request refused because what others reserved fills the limit: reservations
 * come back as those requests finish, long before a window slides or a period ends.
 */
export const RESERVATION_RETRY_SECONDS = 2;

/** Retry-After of a fail-closed refusal when the limit definitions or counters cannot be reached. */
export const FAIL_CLOSED_RETRY_SECONDS = 30;

/** What a fail-closed gateway names when the counters cannot be reached. */
export function unavailableLabel(subject: LimitSubject, limits: SubjectLimits): string {
  const sets = scopesOf(subject, limits).map((s) => s.set);
  return sets.some((s) => s.rules.length > 0) ? 'rate_limiter_unavailable' : 'budget_unavailable';
}

const UNAVAILABLE_ROUTE: RouteCapDecision = {
  ok: false,
  label: 'rate_limiter_unavailable',
  retryAfterSeconds: FAIL_CLOSED_RETRY_SECONDS,
};

export function createGate(deps: GateDeps): Gate {
  // Refusals remembered per definitions object: a reload (version move) forgets them.
  const blocked = new WeakMap<SubjectLimits, Remembered>();

  const loadLimits = async (ask: GateAsk): Promise<SubjectLimits | 'unavailable'> => {
    try {
      return await deps.limitsOf(ask.subject, ask.background);
    } catch (error) {
      deps.warn('limits could not be loaded', { error: String(error), failClosed: ask.failClosed });
      return 'unavailable';
    }
  };

  /** The refusal this caller earned and still serves, on the definitions now current. */
  const remembered = async (ask: GateAsk, limits: SubjectLimits) => {
    const known = blocked.get(limits);
    if (!known || known.untilMs <= ask.nowMs) return { limits, known: undefined };
    // No admission reads the versions for it: read them (once a second at most), so a limit
    // raised since is seen; a move drops the cached definitions, and this memory with them.
    await deps.board.refresh();
    const current = await loadLimits(ask);
    if (current === 'unavailable') return { limits, known };
    const still = blocked.get(current);
    return { limits: current, known: still && still.untilMs > ask.nowMs ? still : undefined };
  };

  return {
    async admit(ask) {
      let limits = await loadLimits(ask);
      if (limits === 'unavailable' && ask.failClosed) {
        return refused('limits_unavailable', FAIL_CLOSED_RETRY_SECONDS);
      }
      if (limits !== 'unavailable') {
        const memory = await remembered(ask, limits);
        if (memory.known)
          return refused(memory.known.label, toRetryAfterSeconds(memory.known.retryAtMs - ask.nowMs));
        limits = memory.limits;
      }
      const counters =
        limits === 'unavailable' ? [] : admissionCounters(ask.subject, limits, ask.nowMs, ask.reserveTokens);
      const request: AdmissionAsk = {
        versions: ask.checkVersions
          ? deps.board.expected()
          : deps.board.expected().map((v) => ({ ...v, expected: '*' })),
        limits: counters,
        route: ask.route ? routeCapCounters(ask.route, ask.nowMs) : [],
        cacheKey: ask.cacheKey,
        nowMs: ask.nowMs,
        checkEpoch: deps.anchorCounters !== undefined,
      };
      const send = async (asked: AdmissionAsk) =>
        readAdmission(asked, await deps.run(admissionCall(asked), ask.background, ask.timer));
      let answer: AdmissionAnswer;
      try {
        answer = await send(request);
        if (answer.kind === 'unanchored') {
          const anchored = await anchor(deps);
          if (!anchored && ask.failClosed)
            return refused('limit_counters_rebuilding', FAIL_CLOSED_RETRY_SECONDS);
          answer = await send({ ...request, checkEpoch: anchored });
          // Lost again meanwhile: count on what there is rather than go round.
          if (answer.kind === 'unanchored') answer = await send({ ...request, checkEpoch: false });
        }
      } catch (error) {
        return unavailable(error, ask, limits, request, deps);
      }
      if (answer.kind === 'unanchored') throw new Error('admit: unanchored without an epoch check');
      const moved = deps.board.observe(answer.versions);
      if (answer.kind === 'stale') return { kind: 'stale', moved };
      if (answer.kind === 'refused') {
        const { refusedBy } = answer.limits;
        deps.onRefusal(refusedBy);
        const memory = memoryOf(ask, counters, answer.limits);
        if (limits !== 'unavailable') blocked.set(limits, memory);
        return refused(refusedBy, toRetryAfterSeconds(memory.retryAtMs - ask.nowMs));
      }
      const budget = tightestBudget(
        counters,
        answer.limits.states,
        ask.thresholds ?? DEFAULT_BUDGET_THRESHOLDS,
      );
      return {
        kind: 'admitted',
        headers: { ...rateLimitHeaders(counters, answer.limits.states), ...budgetHeaders(budget) },
        teams: limits === 'unavailable' ? undefined : limits.teams,
        budget,
        firstRoute: answer.route.checked ? routeDecision(answer.route.result) : 'unchecked',
        cached: answer.cached,
        reserved: reservedOn(counters),
      };
    },
  };
}

/** A refusal the gate repeats without asking Redis until `untilMs`. */
interface Remembered {
  untilMs: number;
  /** What the refusal tells the client (Retry-After), as an instant. */
  retryAtMs: number;
  label: string;
}

/**
 * A used-up limit is remembered, and told, until it frees — except a token limit or budget
 * while requests reserve: what fills it may be reservations that come back as requests finish,
 * within seconds rather than when the window slides or the period ends, so it is asked again
 * after RESERVATION_RETRY_SECONDS. One not used up (what is left is held by requests in flight,
 * or is less than this request reserves) is also told to retry then.
 */
function memoryOf(
  ask: GateAsk,
  counters: readonly Counter[],
  refusal: CounterCheck & { allowed: false },
): Remembered {
  const { refusedBy: label, retryAfterMs, states } = refusal;
  const freesAt = ask.nowMs + retryAfterMs;
  const tokens = counters.find((c) => c.label === label)?.meta.kind === 'tokens';
  if (!tokens || !((ask.reserveTokens ?? 0) > 0)) return { untilMs: freesAt, retryAtMs: freesAt, label };
  const untilMs = Math.min(freesAt, ask.nowMs + RESERVATION_RETRY_SECONDS * 1000);
  const state = states.find((s) => s.label === label);
  const held = state !== undefined && state.used < state.limit;
  return { untilMs, retryAtMs: held ? untilMs : freesAt, label };
}

function refused(label: string, retryAfterSeconds: number): GateDecision {
  return { kind: 'refused', label, retryAfterSeconds };
}

function routeDecision(check: CounterCheck): RouteCapDecision {
  if (check.allowed) return { ok: true };
  return {
    ok: false,
    label: check.refusedBy as RouteCapLabel,
    retryAfterSeconds: toRetryAfterSeconds(check.retryAfterMs),
  };
}

/**
 * Redis could not be reached (or the script failed). Fail open (a warning)
 * unless rate_limit_fail_closed, and then only for a caller that has limits; the route caps
 * follow the same setting; the cache is a miss.
 */
function unavailable(
  error: unknown,
  ask: GateAsk,
  limits: SubjectLimits | 'unavailable',
  request: AdmissionAsk,
  deps: GateDeps,
): GateDecision {
  const known = limits === 'unavailable' ? null : limits;
  const limited = known !== null && (!isEmpty(known.key) || !isEmpty(known.user));
  // While the breaker holds Redis for down, it has said so once; a warning per request would not help.
  if (!(error instanceof StoreUnavailableError))
    deps.warn('limit counters unavailable', { error: String(error), failClosed: ask.failClosed, limited });
  if (ask.failClosed && known !== null && limited) {
    return refused(unavailableLabel(ask.subject, known), FAIL_CLOSED_RETRY_SECONDS);
  }
  const firstRoute: FirstRouteCheck =
    request.route.length === 0 ? 'unchecked' : ask.failClosed ? UNAVAILABLE_ROUTE : { ok: true };
  return { kind: 'admitted', headers: {}, firstRoute, cached: null, budget: null, reserved: [] };
}

/** Whether the counters are anchored again; a failure is logged, and the caller decides. */
async function anchor(deps: GateDeps): Promise<boolean> {
  try {
    await deps.anchorCounters?.();
    return true;
  } catch (error) {
    deps.warn('limit counters could not be rebuilt from the request log', { error: String(error) });
    return false;
  }
}
