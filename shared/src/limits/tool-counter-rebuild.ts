import type { LimitSubject, SubjectLimits } from './definitions';
import { type BudgetPeriod, calendarPeriod } from './periods';
import type { CounterAddition } from './sliding-window';
import { summedAdditions } from './summed-additions';
import { toolCallCounters } from './tool-gate';

/** The calls a tool limit counted, per caller, tool and UTC day, as the MCP call log has them. */
export interface CountedToolCallRow {
  apiKeyId: string | null;
  userId: string;
  serverName: string;
  toolName: string;
  /** Days since 1970-01-01 (UTC) of the calls' start. */
  day: number;
  calls: number;
}

export interface ToolCounterRebuildDeps {
  log: { countedCalls(query: { since: Date; before: Date }): Promise<CountedToolCallRow[]> };
  /** The limits a caller runs under now, tool limits included (as the gateway loads them). */
  limitsOf(subject: LimitSubject): Promise<SubjectLimits>;
}

const DAY_MS = 86_400_000;

/**
 * What goes back on the tool budgets' counters (calls per day, week, month) of the periods that
 * hold `countingSince`, from the calls logged before it. Each call goes on the counters the
 * tool gate would count it on with the limits defined now — the same patterns, so a budget of
 * `github__*` gets every github call back. Rate windows (sliding) refill as calls come, as the
 * request rules do.
 */
export async function toolRebuildAdditions(
  deps: ToolCounterRebuildDeps,
  since: Date,
  countingSince: number,
): Promise<{ additions: CounterAddition[]; calls: number }> {
  const rows = await deps.log.countedCalls({ since, before: new Date(countingSince) });
  const limitsOf = memoized(deps.limitsOf);
  const sums = summedAdditions();
  for (const row of rows) {
    const subject: LimitSubject = { keyId: row.apiKeyId, userId: row.userId, rateLimitRpm: null };
    const tool = { server: row.serverName, tool: row.toolName };
    for (const counter of toolCallCounters(subject, await limitsOf(subject), tool, countingSince)) {
      if (counter.meta.role !== 'budget') continue;
      const period = counter.meta.window as BudgetPeriod;
      if (row.day * DAY_MS >= calendarPeriod(period, countingSince).startMs) sums.add(counter, row.calls);
    }
  }
  return { additions: sums.list(), calls: rows.reduce((sum, row) => sum + row.calls, 0) };
}

/** One load per caller: the log has a row per tool and day. */
function memoized(limitsOf: ToolCounterRebuildDeps['limitsOf']): ToolCounterRebuildDeps['limitsOf'] {
  const loaded = new Map<string, Promise<SubjectLimits>>();
  return (subject) => {
    const id = `${subject.keyId}|${subject.userId}`;
    let limits = loaded.get(id);
    if (!limits) {
      limits = limitsOf(subject);
      loaded.set(id, limits);
    }
    return limits;
  };
}
