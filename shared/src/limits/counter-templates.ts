import type { LimitKind } from './definitions';
import {
  type BudgetPeriod,
  bucketMsOf,
  type CalendarPeriod,
  calendarPeriod,
  type LimitWindow,
  WINDOW_MS,
} from './periods';
import { type PreparedCounter, windowGeometry } from './sliding-window';

/**
 * Counters are worked out from templates: what does not depend on the time (key, label, limit,
 * geometry, meta) is built once per definitions and kept; each request only fills in the
 * current bucket (or calendar period). Building counters from scratch on every request (keys,
 * labels, dates) was a measurable share of the gateway's CPU per request.
 */
export type Scope = 'key' | 'user';

/** What a counter is, beside its script arguments: for headers and the usage report. */
export interface CounterMeta {
  scope: Scope;
  role: 'rule' | 'budget' | 'usage';
  kind: LimitKind;
  window: string;
  windowSecs: number | null;
  resetsAt: string | null;
}

export interface Counter extends PreparedCounter {
  meta: CounterMeta;
}

export interface CounterTemplate {
  /** The counter at nowMs. */
  at(nowMs: number): Counter;
}

const DAY_MS = 86_400_000;

/** A sliding-window rule's counter: only the current bucket changes. */
export function slidingTemplate(options: {
  label: string;
  key: string;
  window: LimitWindow;
  limit: number;
  cost: number;
  meta: Omit<CounterMeta, 'windowSecs' | 'resetsAt'>;
}): CounterTemplate {
  const windowMs = WINDOW_MS[options.window];
  const bucketMs = bucketMsOf(options.window);
  const { bucketsInWindow } = windowGeometry(windowMs, bucketMs, 0);
  const fixed = {
    label: options.label,
    key: options.key,
    bucketsInWindow,
    limit: Math.ceil(options.limit),
    cost: options.cost,
    expiryMs: windowMs + bucketMs,
    bucketMs,
    periodWaitMs: 0,
    meta: { ...options.meta, windowSecs: windowMs / 1000, resetsAt: null },
  };
  return { at: (nowMs) => ({ ...fixed, current: Math.floor(nowMs / bucketMs), nowMs }) };
}

/** A calendar period's counter (one bucket, its period's id in the key). */
export function periodTemplate(options: {
  label: string;
  keyPrefix: string;
  period: BudgetPeriod;
  limit: number;
  cost: number;
  meta: Omit<CounterMeta, 'resetsAt'>;
}): CounterTemplate {
  let last: { period: CalendarPeriod; key: string; meta: CounterMeta } | null = null;
  const forPeriod = (period: CalendarPeriod) => {
    if (last?.period !== period) {
      last = {
        period,
        key: `${options.keyPrefix}${period.id}`,
        meta: { ...options.meta, resetsAt: period.endIso },
      };
    }
    return last;
  };
  return {
    at(nowMs) {
      const { period, key, meta } = forPeriod(calendarPeriod(options.period, nowMs));
      const waitMs = period.endMs - nowMs;
      return {
        label: options.label,
        key,
        current: 0,
        bucketsInWindow: 1,
        limit: Math.ceil(options.limit),
        cost: options.cost,
        // Kept a day past the period so a slow clock elsewhere still finds it.
        expiryMs: waitMs + DAY_MS,
        bucketMs: 0,
        nowMs,
        periodWaitMs: waitMs,
        meta,
      };
    },
  };
}
