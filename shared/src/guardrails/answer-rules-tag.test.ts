import { describe, expect, it } from 'vitest';
import { answerRulesTag } from './answer-rules-tag';
import { redactSettingSchema } from './redact-policy';
import { toolSettingSchema } from './tool-policy';

const redact = (value: unknown) => redactSettingSchema.parse(value);
const tools = (value: unknown) => toolSettingSchema.parse(value);

describe('answerRulesTag (part of the response cache key)', () => {
  it('is empty while no rule reshapes answers, request-only redaction included', () => {
    expect(answerRulesTag(redact({}), tools({}))).toBe('');
    expect(answerRulesTag(redact({ detectors: ['email'], apply_to: ['request'] }), tools({}))).toBe('');
  });

  it('changes with the rules that reshape answers, and not otherwise', () => {
    const noDrops = tools({ deny: [{ name: 'no-drops', tool: 'run_*' }] });
    const a = answerRulesTag(redact({}), noDrops);
    expect(a).toMatch(/^[0-9a-f]{8}$/);
    expect(answerRulesTag(redact({}), tools({ deny: [{ name: 'no-drops', tool: 'run_*' }] }))).toBe(a);
    expect(answerRulesTag(redact({}), tools({ deny: [{ name: 'no-drops', tool: 'sql_*' }] }))).not.toBe(a);
    const responses = redact({ detectors: ['email'], apply_to: ['response'] });
    expect(answerRulesTag(responses, tools({}))).not.toBe('');
    expect(answerRulesTag(responses, noDrops)).not.toBe(a);
  });
});
