import { describe, expect, it } from 'vitest';
import {
  effectiveUserLimits,
  isEmpty,
  keyLimits,
  limitSubject,
  type RuleDef,
  subjectLimits,
} from './definitions';

const rule = (kind: RuleDef['kind'], window: RuleDef['window'], limit: number): RuleDef => ({
  kind,
  window,
  limit,
});
const none = { roleRules: [], roleBudgets: [], userRules: [], userBudgets: [], keyRules: [], keyBudgets: [] };
const byId = (rules: RuleDef[]) => Object.fromEntries(rules.map((r) => [`${r.kind}/${r.window}`, r.limit]));

describe('effective user limits', () => {
  it('merge the roles most-restrictive per kind and window, and per budget period', () => {
    const set = effectiveUserLimits({
      ...none,
      roleRules: [rule('requests', '1m', 10), rule('requests', '1m', 5), rule('tokens', '1h', 900)],
      roleBudgets: [
        { period: 'daily', limitTokens: 100 },
        { period: 'daily', limitTokens: 300 },
      ],
    });
    expect(byId(set.rules)).toEqual({ 'requests/1m': 5, 'tokens/1h': 900 });
    expect(set.budgets).toEqual([{ period: 'daily', limitTokens: 100 }]);
  });

  it('then apply the user overrides, which may loosen a role limit', () => {
    const set = effectiveUserLimits({
      ...none,
      roleRules: [rule('requests', '1m', 5), rule('requests', '1d', 100)],
      userRules: [rule('requests', '1m', 50)],
      roleBudgets: [{ period: 'monthly', limitTokens: 10 }],
      userBudgets: [{ period: 'monthly', limitTokens: 20 }],
    });
    expect(byId(set.rules)).toEqual({ 'requests/1m': 50, 'requests/1d': 100 });
    expect(set.budgets).toEqual([{ period: 'monthly', limitTokens: 20 }]);
  });
});

describe('key limits', () => {
  it('count rate_limit_rpm as requests/1m, the lower of it and a 1m rule winning', () => {
    expect(byId(keyLimits(none, 30).rules)).toEqual({ 'requests/1m': 30 });
    expect(byId(keyLimits({ ...none, keyRules: [rule('requests', '1m', 20)] }, 30).rules)).toEqual({
      'requests/1m': 20,
    });
    expect(isEmpty(keyLimits(none, null))).toBe(true);
  });

  it('a JWT caller has no key limits, only the user ones', () => {
    const subject = limitSubject({ kind: 'user', userId: 'u1', role: 'user' });
    expect(subject).toEqual({ keyId: null, userId: 'u1', rateLimitRpm: null });
    const limits = subjectLimits({ ...none, keyRules: [rule('requests', '1m', 1)] }, subject);
    expect(limits.key).toBeNull();
  });
});
