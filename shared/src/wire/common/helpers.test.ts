import { describe, expect, it } from 'vitest';
import type { CanonicalMessage } from '../../canonical/types';
import { AppError } from '../../http/app-error';
import { appendMessage } from './conversation';
import { formatId } from './ids';
import { imageFromUrl, imageToUrl } from './images';
import { parseArgumentsObject } from './json';
import { mergeUsage } from './usage';

describe('formatId', () => {
  it('keeps ids already in the target style and swaps known prefixes otherwise', () => {
    expect(formatId('call_', 'call_abc')).toBe('call_abc');
    expect(formatId('call_', 'toolu_01AB')).toBe('call_01AB');
    expect(formatId('toolu_', 'call_abc')).toBe('toolu_abc');
    expect(formatId('chatcmpl-', 'resp_123')).toBe('chatcmpl-123');
    expect(formatId('msg_', 'gen-42')).toBe('msg_gen-42');
  });

  it('replaces characters vendors reject and invents an id when there is none', () => {
    expect(formatId('toolu_', 'fn:1/2')).toBe('toolu_fn_1_2');
    expect(formatId('call_', 'call_a.b')).toBe('call_a_b');
    expect(formatId('resp_', '')).toMatch(/^resp_[0-9a-f]{32}$/);
  });
});

describe('images', () => {
  it('splits base64 data URLs (with parameters) and keeps http URLs', () => {
    expect(imageFromUrl('data:image/jpeg;name=x.jpg;base64,AAAA', 'f')).toStrictEqual({
      type: 'image',
      source: { kind: 'base64', mediaType: 'image/jpeg', data: 'AAAA' },
    });
    expect(imageFromUrl('HTTPS://x.test/a.png', 'f').source).toStrictEqual({
      kind: 'url',
      url: 'HTTPS://x.test/a.png',
    });
    expect(imageToUrl(imageFromUrl('data:image/png;base64,QQ==', 'f'))).toBe('data:image/png;base64,QQ==');
  });

  it.each([
    'data:;base64,AAAA',
    'data:image/png,AAAA',
    'file:///etc/passwd',
    'data:image/png;base64',
  ])('rejects %s naming the field', (url) => {
    expect(() => imageFromUrl(url, 'messages[0].content[1].image_url.url')).toThrowError(AppError);
    expect(() => imageFromUrl(url, 'messages[0].content[1].image_url.url')).toThrow(
      /'messages\[0\]\.content\[1\]/,
    );
  });
});

describe('appendMessage', () => {
  const result = (id: string) => ({ type: 'tool_result' as const, toolCallId: id, content: [] });
  const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'f', arguments: '{}' });

  it('groups one tool turn: calls into the assistant message, results into one user message', () => {
    const messages: CanonicalMessage[] = [];
    appendMessage(messages, { role: 'assistant', content: [{ type: 'text', text: 'x' }] });
    appendMessage(messages, { role: 'assistant', content: [call('1')] });
    appendMessage(messages, { role: 'assistant', content: [call('2')] });
    appendMessage(messages, { role: 'user', content: [result('1')] });
    appendMessage(messages, { role: 'user', content: [result('2')] });
    appendMessage(messages, { role: 'user', content: [{ type: 'text', text: 'next' }] });
    expect(messages.map((m) => [m.role, m.content.length])).toStrictEqual([
      ['assistant', 3],
      ['user', 2],
      ['user', 1],
    ]);
  });

  it('does not merge ordinary consecutive messages', () => {
    const messages: CanonicalMessage[] = [];
    appendMessage(messages, { role: 'user', content: [{ type: 'text', text: 'a' }] });
    appendMessage(messages, { role: 'user', content: [{ type: 'text', text: 'b' }] });
    expect(messages).toHaveLength(2);
  });
});

describe('small helpers', () => {
  it('parses tool arguments to an object or {}', () => {
    expect(parseArgumentsObject('{"a":1}')).toStrictEqual({ a: 1 });
    expect(parseArgumentsObject('')).toStrictEqual({});
    expect(parseArgumentsObject('[1,2]')).toStrictEqual({});
    expect(parseArgumentsObject('{"a":')).toStrictEqual({});
  });

  it('merges usage by field maximum, keeping cache counts when any report has them', () => {
    expect(mergeUsage(null, { inputTokens: 1, outputTokens: 2 })).toStrictEqual({
      inputTokens: 1,
      outputTokens: 2,
    });
    expect(
      mergeUsage(
        { inputTokens: 5, outputTokens: 1, cachedInputTokens: 3 },
        { inputTokens: 5, outputTokens: 9 },
      ),
    ).toStrictEqual({ inputTokens: 5, outputTokens: 9, cachedInputTokens: 3 });
  });
});
