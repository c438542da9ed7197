import type { WriteBehind } from '../runtime/write-behind';
import type { Background } from '../util/background';
import { tokenCounters } from './counters';
import type { LimitSubject, SubjectLimits } from './definitions';
import { type RouteCapInput, routeTokenAddition } from './route-caps';
import { addCall, type CounterAddition } from './sliding-window';

/**
 * Weighted tokens to add on limit counters after responses (the key's and the owner's token
 * rules and calendar counters, a route's TPM cap). Amounts for the same counter bucket are
 * summed in the isolate and the window's total goes out as one ADD script call in the
 * write-behind flush: one Redis round trip per window, however many responses ended in it.
 */
export interface TokenTally {
  /**
   * Resolves (never rejects) once the amounts are in Redis, or failed and were reported;
   * `keepAlive` gets the flush when this call opens it (runtime/write-behind.ts).
   */
  add(entries: readonly CounterAddition[], keepAlive?: Background): Promise<void>;
}

export function createTokenTally(
  writeBehind: WriteBehind,
  onError: (error: string, lostTokens: number) => void,
): TokenTally {
  let pending = new Map<string, CounterAddition>();
  writeBehind.register({
    drain() {
      if (pending.size === 0) return [];
      const entries = [...pending.values()];
      pending = new Map();
      const call = addCall(entries);
      if (!call) return [];
      const lost = entries.reduce((sum, e) => sum + Math.max(0, e.amount), 0);
      return [{ call, done: (outcome) => (outcome.ok ? undefined : onError(outcome.error, lost)) }];
    },
  });
  return {
    add(entries, keepAlive) {
      let added = false;
      for (const entry of entries) {
        // Negative amounts give reservations back; a bucket's amounts are summed either way.
        if (!Number.isFinite(entry.amount) || entry.amount === 0) continue;
        const id = `${entry.key}\n${entry.current}`;
        const held = pending.get(id);
        if (held) held.amount += entry.amount;
        else pending.set(id, { ...entry });
        added = true;
      }
      return added ? writeBehind.schedule(keepAlive) : Promise.resolve();
    },
  };
}

/**
 * Where a response's weighted tokens go: every token counter of the key and its owner (token
 * rules, the day and month counters, a weekly budget's), and the route's TPM counter when the
 * route has a TPM cap. `limits` null (they could not be loaded): the route's only.
 */
export function tokenAdditions(
  subject: LimitSubject,
  limits: SubjectLimits | null,
  route: RouteCapInput | null,
  weightedTokens: number,
  nowMs: number,
): CounterAddition[] {
  const entries: CounterAddition[] = (limits ? tokenCounters(subject, limits, nowMs) : []).map((c) => ({
    key: c.key,
    current: c.current,
    bucketsInWindow: c.bucketsInWindow,
    expiryMs: c.expiryMs,
    amount: weightedTokens,
  }));
  if (route && route.tpmCap !== null) entries.push(routeTokenAddition(route.routeId, weightedTokens, nowMs));
  return entries;
}
