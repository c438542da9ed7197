/** How close a counter is to its limit, as the budget alerts name it. */
export type BudgetState = 'ok' | 'warning' | 'critical' | 'exhausted';

/** Fractions of a limit (the settings budget_warning_threshold and budget_critical_threshold). */
export interface BudgetThresholds {
  warning: number;
  critical: number;
}

export const DEFAULT_THRESHOLDS: BudgetThresholds = { warning: 0.8, critical: 0.95 };

export const STATE_COLOR: Record<BudgetState, string> = {
  ok: 'green',
  warning: 'yellow',
  critical: 'orange',
  exhausted: 'red',
};

/** exhausted once used reaches the limit; critical / warning from the share used; else ok. */
export function budgetState(used: number, limit: number, thresholds: BudgetThresholds): BudgetState {
  if (used >= limit) return 'exhausted';
  const share = used / limit;
  if (share >= thresholds.critical) return 'critical';
  if (share >= thresholds.warning) return 'warning';
  return 'ok';
}

const fraction = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** The thresholds from GET /api/admin/settings/category/budget; a missing one keeps its default. */
export function budgetThresholds(settings: unknown): BudgetThresholds {
  const s = (typeof settings === 'object' && settings !== null ? settings : {}) as Record<string, unknown>;
  return {
    warning: fraction(s.budget_warning_threshold, DEFAULT_THRESHOLDS.warning),
    critical: fraction(s.budget_critical_threshold, DEFAULT_THRESHOLDS.critical),
  };
}
