import type { ScriptCall } from '../runtime/script-pipeline';
import { ADMIT_SCRIPT } from './admission-script';
import { COUNTING_SINCE_KEY, EPOCH_KEY } from './counting-since';
import {
  type CounterCheck,
  counterArgs,
  interpretCheck,
  type PreparedCounter,
  type ScriptState,
} from './sliding-window';

/** What one admission asks of Redis (see ADMIT_SCRIPT). */
export interface AdmissionAsk {
  /** Version keys with the value this isolate's caches were loaded at ('*': not checked). */
  versions: ReadonlyArray<{ key: string; expected: string }>;
  /** Every limit of the key and its owner (limits/counters.ts admissionCounters). */
  limits: readonly PreparedCounter[];
  /** The caps of the first route the request will try; empty when it has none. */
  route: readonly PreparedCounter[];
  /** The response cache entry to read; null when the cache is off for this request. */
  cacheKey: string | null;
  /** The caller's time (stamped on the counting-since key when Redis lost it). */
  nowMs: number;
  /** Refuse to count while the epoch mark is missing (counter-rebuild.ts); false: count anyway. */
  checkEpoch: boolean;
}

export type RouteCheck = { checked: false } | { checked: true; result: CounterCheck };

export type AdmissionAnswer =
  /** A version moved: nothing was counted; reload what changed and ask again. */
  | { kind: 'stale'; versions: string[] }
  /** The counters are not anchored (the epoch mark is missing): nothing was counted. */
  | { kind: 'unanchored' }
  | { kind: 'refused'; versions: string[]; limits: Extract<CounterCheck, { allowed: false }> }
  | {
      kind: 'admitted';
      versions: string[];
      limits: Extract<CounterCheck, { allowed: true }>;
      route: RouteCheck;
      /** The cached answer as stored, or null on a miss (or when not asked). */
      cached: string | null;
    };

export function admissionCall(ask: AdmissionAsk): ScriptCall {
  const limits = counterArgs(ask.limits);
  const route = counterArgs(ask.route);
  const keys = [
    ...ask.versions.map((v) => v.key),
    ...limits.keys,
    ...route.keys,
    ...(ask.cacheKey === null ? [] : [ask.cacheKey]),
    COUNTING_SINCE_KEY,
    EPOCH_KEY,
  ];
  const args = [
    ask.versions.length,
    ask.limits.length,
    ask.route.length,
    ask.cacheKey === null ? 0 : 1,
    ...ask.versions.map((v) => v.expected),
    ...limits.args,
    ...route.args,
    Math.floor(ask.nowMs),
    ask.checkEpoch ? 1 : 0,
  ];
  return { script: ADMIT_SCRIPT, keys, args };
}

type Reply = [
  status: number | string,
  versions: Array<string | number | null>,
  /** Flat {used, newest, ...} when admitted; one ScriptState per counter when refused. */
  limits?: Array<number | string> | ScriptState[],
  route?: number | string,
  /** Flat when the caps passed; one ScriptState per counter when one was reached (route 0). */
  routeStates?: Array<number | string> | ScriptState[],
  cached?: string | null,
];

/** An admitted reply's flat states, {used, newest, used, newest, ...}, one state per pair. */
function statesOf(flat: ReadonlyArray<number | string>): ScriptState[] {
  const states: ScriptState[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) states.push([Number(flat[i]), Number(flat[i + 1]), []]);
  return states;
}

const text = (value: string | number | null | undefined): string =>
  value === null || value === undefined ? '' : String(value);

/** Reads ADMIT_SCRIPT's reply against the counters it was asked about. */
export function readAdmission(ask: AdmissionAsk, raw: unknown): AdmissionAnswer {
  if (!Array.isArray(raw)) throw new Error('admit: malformed reply');
  const [status, rawVersions, limitStates = [], route = -1, routeStates = [], cached] = raw as Reply;
  const versions = (Array.isArray(rawVersions) ? rawVersions : []).map(text);
  const code = Number(status);
  if (code === -1) return { kind: 'stale', versions };
  if (code === -2) return { kind: 'unanchored' };
  const admitted = code === 1;
  const limits = interpretCheck(
    ask.limits,
    admitted,
    admitted ? statesOf(limitStates as Array<number | string>) : (limitStates as ScriptState[]),
  );
  if (!limits.allowed) return { kind: 'refused', versions, limits };
  const routeCode = Number(route);
  const routeStateList =
    routeCode === 0 ? (routeStates as ScriptState[]) : statesOf(routeStates as Array<number | string>);
  return {
    kind: 'admitted',
    versions,
    limits,
    route:
      routeCode === -1
        ? { checked: false }
        : { checked: true, result: interpretCheck(ask.route, routeCode === 1, routeStateList) },
    cached: cached === undefined || cached === null || cached === '' ? null : String(cached),
  };
}
