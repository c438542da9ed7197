import type { BUDGET_PERIODS, LIMIT_WINDOWS } from '../db/schema/limits';

export type LimitWindow = (typeof LIMIT_WINDOWS)[number];
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Sliding window lengths: the windows a requests or tokens rule may name. */
export const WINDOW_MS: Record<LimitWindow, number> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '1h': HOUR,
  '5h': 5 * HOUR,
  '1d': DAY,
  '1w': 7 * DAY,
};

/**
 * Every window is counted in 60 buckets, so a count leaves it at most 1/60 of the window
 * late (1 s for 1m, 24 min for 1d) and never early.
 */
export const BUCKETS_PER_WINDOW = 60;

export function bucketMsOf(window: LimitWindow): number {
  return WINDOW_MS[window] / BUCKETS_PER_WINDOW;
}

/** A calendar period (UTC): a stable id for counter keys, and when it starts and ends. */
export interface CalendarPeriod {
  id: string;
  startMs: number;
  endMs: number;
  /** endMs as an ISO timestamp (resets_at in GET /v1/usage). */
  endIso: string;
}

/** The last period worked out per kind: every request asks for the same few periods. */
const lastPeriod = new Map<BudgetPeriod, CalendarPeriod>();

/** The UTC day, ISO week (Monday to Monday) or month that holds nowMs. */
export function calendarPeriod(period: BudgetPeriod, nowMs: number): CalendarPeriod {
  const last = lastPeriod.get(period);
  if (last && nowMs >= last.startMs && nowMs < last.endMs) return last;
  const found = periodAt(period, nowMs);
  lastPeriod.set(period, found);
  return found;
}

function periodAt(period: BudgetPeriod, nowMs: number): CalendarPeriod {
  const { id, startMs, endMs } = bounds(period, nowMs);
  return { id, startMs, endMs, endIso: new Date(endMs).toISOString() };
}

function bounds(period: BudgetPeriod, nowMs: number): Omit<CalendarPeriod, 'endIso'> {
  const now = new Date(nowMs);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const dayStart = Date.UTC(y, m, now.getUTCDate());
  if (period === 'daily') {
    return { id: isoDate(dayStart), startMs: dayStart, endMs: dayStart + DAY };
  }
  if (period === 'weekly') {
    const sinceMonday = (now.getUTCDay() + 6) % 7;
    const start = dayStart - sinceMonday * DAY;
    return { id: `w${isoDate(start)}`, startMs: start, endMs: start + 7 * DAY };
  }
  const start = Date.UTC(y, m, 1);
  return { id: isoDate(start).slice(0, 7), startMs: start, endMs: Date.UTC(y, m + 1, 1) };
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
