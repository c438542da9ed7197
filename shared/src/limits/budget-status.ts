import type { SettingValues } from '../settings/definitions';
import type { Counter } from './counters';
import type { SlidingWindowState } from './sliding-window';

/** How much of a limit is used: below the warning share, past it, past the critical one, or all. */
export type BudgetStatus = 'ok' | 'warning' | 'critical' | 'exhausted';

/** Settings budget_warning_threshold and budget_critical_threshold (shares of the limit). */
export interface BudgetThresholds {
  warning: number;
  critical: number;
}

/** The settings' defaults. */
export const DEFAULT_BUDGET_THRESHOLDS: BudgetThresholds = { warning: 0.8, critical: 0.95 };

/** The thresholds the settings set. */
export function budgetThresholdsOf(
  values: Pick<SettingValues, 'budget_warning_threshold' | 'budget_critical_threshold'>,
): BudgetThresholds {
  return { warning: values.budget_warning_threshold, critical: values.budget_critical_threshold };
}

export const BUDGET_STATUS_HEADER = 'x-sluice-budget-status';
export const BUDGET_PERIOD_HEADER = 'x-sluice-budget-period';

export function budgetStatus(used: number, limit: number, thresholds: BudgetThresholds): BudgetStatus {
  if (limit <= 0 || used >= limit) return 'exhausted';
  const share = used / limit;
  if (share >= thresholds.critical) return 'critical';
  if (share >= thresholds.warning) return 'warning';
  return 'ok';
}

/** The budget closest to its limit after an admission, with what is needed to tell of it. */
export interface TightestBudget {
  status: BudgetStatus;
  /** key or user. */
  scope: string;
  /** daily, weekly, monthly. */
  period: string;
  used: number;
  limit: number;
  /** The period's end (ISO): an alert for it is due once per period. */
  resetsAt: string | null;
}

/** Of the budget counters an admission read, the one with the largest share used. */
export function tightestBudget(
  counters: readonly Counter[],
  states: readonly SlidingWindowState[],
  thresholds: BudgetThresholds,
): TightestBudget | null {
  let tightest: TightestBudget | null = null;
  let tightestShare = -1;
  counters.forEach((counter, i) => {
    const state = states[i];
    if (!state || counter.meta.role !== 'budget' || counter.limit <= 0) return;
    // As before this request: what it reserved on the budget (its cost) is not yet used.
    const used = Math.max(0, state.used - counter.cost);
    const share = used / counter.limit;
    if (share <= tightestShare) return;
    tightestShare = share;
    tightest = {
      status: budgetStatus(used, counter.limit, thresholds),
      scope: counter.meta.scope,
      period: counter.meta.window,
      used,
      limit: counter.limit,
      resetsAt: counter.meta.resetsAt,
    };
  });
  return tightest;
}

/** What a successful answer says of the tightest budget; nothing when the caller has none. */
export function budgetHeaders(budget: TightestBudget | null): Record<string, string> {
  if (!budget) return {};
  return {
    [BUDGET_STATUS_HEADER]: budget.status,
    [BUDGET_PERIOD_HEADER]: `${budget.scope}:${budget.period}`,
  };
}
