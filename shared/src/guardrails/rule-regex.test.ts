import { describe, expect, it } from 'vitest';
import { compileRuleRegex, ruleRegexProblem } from './rule-regex';

describe('guardrail rule regexes', () => {
  it('are JavaScript syntax, a leading (?i) making one case-insensitive', () => {
    expect(compileRuleRegex('(?i)codename\\s+[a-z]+').test('The CODENAME Falcon')).toBe(true);
    expect(compileRuleRegex('codename').test('CODENAME')).toBe(false);
    expect(ruleRegexProblem('TCK-[0-9]+')).toBeNull();
  });

  it('refuse what does not compile, is empty or too long', () => {
    expect(ruleRegexProblem('(unclosed')).toMatch(/^is not a valid regular expression/);
    expect(ruleRegexProblem('')).toBe('must not be empty');
    expect(ruleRegexProblem('a'.repeat(1001))).toMatch(/at most 1000/);
  });

  it('refuse repeated groups that repeat inside (catastrophic backtracking), not plain repetition', () => {
    for (const bad of ['(a+)+', '(\\w*\\s?)*', '((ab)*c)+', '(x+){2,}', '(?:a|b+)*$']) {
      expect(ruleRegexProblem(bad), bad).toMatch(/exponential/);
    }
    for (const fine of ['(ab)+', 'a+b*', '[(+)]+', '\\(a+\\)+', '(a+)?', '(foo|bar)\\d+', 'x{2}']) {
      expect(ruleRegexProblem(fine), fine).toBeNull();
    }
  });
});
