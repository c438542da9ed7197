import type { WarmCaches } from '../gateway/warm-caches';
import type { SubjectLimits } from '../limits/definitions';
import { releases } from '../limits/reservation';
import type { CounterAddition } from '../limits/sliding-window';
import { type TokenTally, tokenAdditions } from '../limits/token-tally';
import { detached } from '../util/background';
import type { ProxyDeps, TokenSettlement } from './types';

/**
 * The counter additions of a finished request: its weighted tokens on the subject's token
 * counters (none when `limits` could not be loaded) and on the answering route's TPM cap, and
 * what admission reserved given back.
 */
export function settlementAdditions(
  settlement: TokenSettlement,
  limits: SubjectLimits | null,
): CounterAddition[] {
  const { subject, route, weightedTokens, nowMs, reserved } = settlement;
  const capped = route?.routeId
    ? { routeId: route.routeId, rpmCap: route.rpmCap, tpmCap: route.tpmCap }
    : null;
  return [...tokenAdditions(subject, limits, capped, weightedTokens, nowMs), ...releases(reserved)];
}

/**
 * ProxyDeps.countTokens over the isolate's limits cache and the token tally: the subject's limits
 * as the cache holds them (loaded when it holds none, with no request to keep the fill alive;
 * null when they cannot be), the additions queued on the tally, whose flush a call that opens it
 * hands to `keepAlive`. Resolves before the tally does: nobody waits for the counting.
 */
export function tokenSettler(
  limits: Pick<WarmCaches, 'peekLimits' | 'limits'>,
  tally: TokenTally,
): ProxyDeps['countTokens'] {
  return async (settlement, keepAlive) => {
    const known =
      limits.peekLimits(settlement.subject) ??
      (await limits.limits(settlement.subject, detached).catch(() => null));
    void tally.add(settlementAdditions(settlement, known), keepAlive);
  };
}
