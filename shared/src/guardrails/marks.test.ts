import { describe, expect, it } from 'vitest';
import { formatMarks, type GuardrailMark, parseMarks } from './marks';

describe('guardrail marks', () => {
  it('round-trips through the log field, and reads nothing from what is not a mark', () => {
    const marks: GuardrailMark[] = [
      { action: 'flag', guardrail: 'content', rule: 'pii-terms' },
      { action: 'block', guardrail: 'inspect_tools', rule: 'no-rm.v2' },
    ];
    expect(formatMarks(marks)).toBe('flag:content:pii-terms,block:inspect_tools:no-rm.v2');
    expect(parseMarks(formatMarks(marks))).toEqual(marks);
    expect(formatMarks([])).toBeNull();
    expect(parseMarks(null)).toEqual([]);
    expect(parseMarks('allow:content:x,block:redact:y,block:content:')).toEqual([]);
  });
});
