import { describe, expect, it } from 'vitest';
import { answerCharsIn } from './answer-chars';

describe('answerCharsIn', () => {
  it('counts the text, reasoning and argument strings of every format', () => {
    const chat =
      'data: {"choices":[{"delta":{"content":"Hel"}}]}\n\ndata: {"choices":[{"delta":{"content":"lo \\"x\\""}}]}\n\n';
    expect(answerCharsIn(chat)).toBe(3 + 8);
    const messages =
      'data: {"type":"content_block_delta","delta":{"type":"thinking_delta","thinking":"hm"}}\n\n';
    expect(answerCharsIn(messages)).toBe(2);
    expect(answerCharsIn('data: {"type":"response.output_text.delta","delta":"abc"}\n\n')).toBe(3);
  });

  it('reads a string of many megabytes in one match', () => {
    const huge = `data: {"choices":[{"delta":{"content":"${'x'.repeat(20 * 1024 * 1024)}"}}]}\n\n`;
    expect(answerCharsIn(huge)).toBe(20 * 1024 * 1024);
  });
});
