import { describe, expect, it } from 'vitest';
import { blockingToolRule, toolPolicyOf, toolSettingSchema } from './tool-policy';

const policy = (setting: unknown) => toolPolicyOf(toolSettingSchema.parse(setting));

describe('security.inspect_tools', () => {
  const rules = policy({
    deny: [
      { name: 'no-prod-writes', tool: 'db__*', argument_regex: '(?i)\\bprod(uction)?\\b' },
      { name: 'no-deletes', tool: '*__delete_*' },
    ],
  });

  it('refuses a tool by glob, outright or when an argument (however deep) matches', () => {
    expect(blockingToolRule(rules, 'github__delete_repo', {})).toBe('no-deletes');
    expect(blockingToolRule(rules, 'db__query', { target: { env: 'PROD' } })).toBe('no-prod-writes');
    expect(blockingToolRule(rules, 'db__query', { targets: ['staging', 'production'] })).toBe(
      'no-prod-writes',
    );
    expect(blockingToolRule(rules, 'db__query', { env: 'staging', limit: 5 })).toBeNull();
    expect(blockingToolRule(rules, 'files__read', { path: 'prod.txt' })).toBeNull();
  });

  it('is nothing to check when empty or disabled', () => {
    expect(policy({})).toBeNull();
    expect(policy({ enabled: false, deny: [{ name: 'x', tool: '*' }] })).toBeNull();
    expect(blockingToolRule(null, 'a__b', {})).toBeNull();
  });

  it('validates rules at the field', () => {
    const issues = (value: unknown) =>
      toolSettingSchema.safeParse(value).error?.issues.map((i) => i.path.join('.')) ?? [];
    expect(issues({ deny: [{ name: 'x', tool: 'a b' }] })).toEqual(['deny.0.tool']);
    expect(issues({ deny: [{ name: 'x', tool: '*', argument_regex: '(x+)*' }] })).toEqual([
      'deny.0.argument_regex',
    ]);
    expect(issues({ deny: [{ name: 'x', tool: '*', extra: 1 }] })).toEqual(['deny.0']);
  });
});
