import { describe, expect, it } from 'vitest';
import {
  effectiveToolLimits,
  keyToolLimits,
  TOOL_PATTERN,
  type ToolLimitDef,
  toolPatternMatches,
} from './tool-limits';

const search = { server: 'github', tool: 'search' };

describe('toolPatternMatches', () => {
  it('an exact <server>__<tool> covers that tool only', () => {
    expect(toolPatternMatches('github__search', search)).toBe(true);
    expect(toolPatternMatches('github__search', { server: 'github', tool: 'search_issues' })).toBe(false);
    expect(toolPatternMatches('github__search', { server: 'gitlab', tool: 'search' })).toBe(false);
  });

  it('<server>__* covers every tool of that server, by the server name, not a prefix', () => {
    expect(toolPatternMatches('github__*', search)).toBe(true);
    expect(toolPatternMatches('github__*', { server: 'github', tool: 'create_issue' })).toBe(true);
    expect(toolPatternMatches('github__*', { server: 'gitlab', tool: 'search' })).toBe(false);
    // Server `a_` has tool `_x` published as `a___x`, which starts with `a__`: still not server `a`.
    expect(toolPatternMatches('a__*', { server: 'a_', tool: '_x' })).toBe(false);
    expect(toolPatternMatches('a_-b__*', { server: 'a_-b', tool: 'x' })).toBe(true);
  });

  it('* covers any tool call', () => {
    expect(toolPatternMatches('*', search)).toBe(true);
    expect(toolPatternMatches('*', { server: 'docs', tool: 'read' })).toBe(true);
  });
});

describe('TOOL_PATTERN', () => {
  it.each(['*', 'github__*', 'github__search', 'my-server__tool.v2', 'a__b__c'])('takes %s', (p) => {
    expect(TOOL_PATTERN.test(p)).toBe(true);
  });

  it.each([
    '',
    'github',
    'github__',
    'Github__search',
    '__search',
    'github*',
    'git*__search',
    '*__search',
    'github__sea rch',
    '**',
  ])('refuses %j', (p) => {
    expect(TOOL_PATTERN.test(p)).toBe(false);
  });
});

const rate = (tool: string, window: '1m' | '1h', limit: number): ToolLimitDef => ({
  tool,
  kind: 'rate',
  window,
  limit,
});
const budget = (tool: string, period: 'daily' | 'monthly', limit: number): ToolLimitDef => ({
  tool,
  kind: 'budget',
  period,
  limit,
});

describe('effectiveToolLimits', () => {
  it('merges the roles most-restrictive per pattern, kind and window; the user’s own replace them', () => {
    const roles = [
      rate('github__*', '1m', 10),
      rate('github__*', '1m', 5),
      rate('github__*', '1h', 100),
      budget('github__*', 'daily', 50),
      rate('*', '1m', 30),
    ];
    const user = [rate('github__*', '1h', 500), budget('docs__read', 'daily', 3)];
    expect(effectiveToolLimits(roles, user)).toEqual([
      rate('github__*', '1m', 5),
      // Loosened by the user's own override.
      rate('github__*', '1h', 500),
      budget('github__*', 'daily', 50),
      rate('*', '1m', 30),
      budget('docs__read', 'daily', 3),
    ]);
  });

  it('a rate and a budget of one pattern, and two patterns over the same tool, are separate limits', () => {
    const limits = effectiveToolLimits([rate('github__search', '1m', 2), rate('github__*', '1m', 9)], []);
    expect(limits).toHaveLength(2);
    expect(effectiveToolLimits([budget('x__y', 'daily', 1)], [rate('x__y', '1m', 1)])).toHaveLength(2);
  });

  it('a key keeps the lowest of repeated limits', () => {
    expect(keyToolLimits([rate('*', '1m', 7), rate('*', '1m', 3)])).toEqual([rate('*', '1m', 3)]);
  });
});
