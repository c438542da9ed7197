import { describe, expect, it } from 'vitest';
import fullRequest from '../../../test/wire/openai-chat/fixtures/request-full.json';
import { isPlainChatRequest } from './plain-request';
import { chatRequestSchema } from './request-schema';
import { chatToCanonical, parseChatRequest } from './to-canonical';

const sdkBody = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Say hello in one short sentence.', name: 'ada' },
    { role: 'assistant', content: null },
    { role: 'developer', content: '' },
  ],
  max_tokens: 64,
  temperature: 0,
  stream: true,
  stream_options: { include_usage: true },
  service_tier: 'auto',
};

/** Values that probe every check's edges: types, ranges, integers, empty and nested shapes. */
const PROBES: unknown[] = [
  null,
  undefined,
  true,
  false,
  0,
  1,
  -1,
  1.5,
  2,
  2.5,
  -2,
  -2.5,
  3,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  'x',
  'auto',
  [],
  ['a'],
  [1],
  {},
  { include_usage: true },
  { include_usage: 'yes' },
  { type: 'text' },
  { a: 'b' },
  [{ role: 'user', content: 'hi' }],
  [{ role: 'tool', content: 'hi' }],
  [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  [{ role: 'assistant', content: 'hi', tool_calls: [] }],
  [{ role: 'user' }],
];

const FIELDS = [...Object.keys(chatRequestSchema.shape), 'unknown_field'];

/** The fast path may say no to anything; when it says yes, the schema must accept the body unchanged. */
function expectAgreesWithSchema(body: unknown): boolean {
  const plain = isPlainChatRequest(body);
  if (plain) {
    const parsed = chatRequestSchema.safeParse(body);
    expect(parsed.success, JSON.stringify(body)).toBe(true);
    expect(parsed.data).toEqual(body);
  }
  return plain;
}

describe('isPlainChatRequest', () => {
  it('takes the common SDK bodies, json and stream, as the schema parses them', () => {
    expect(expectAgreesWithSchema(sdkBody)).toBe(true);
    expect(expectAgreesWithSchema({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] })).toBe(true);
    expect(parseChatRequest(sdkBody)).toStrictEqual(chatToCanonical(chatRequestSchema.parse(sdkBody)));
  });

  it('leaves tools, content parts, tool messages and metadata to the schema', () => {
    expect(isPlainChatRequest(fullRequest)).toBe(false);
    expect(isPlainChatRequest({ ...sdkBody, metadata: { a: 'b' } })).toBe(false);
    expect(isPlainChatRequest({ ...sdkBody, tools: [] })).toBe(false);
    const withProto = '{"model":"m","messages":[{"role":"user","content":"x"}],"__proto__":{}}';
    expect(isPlainChatRequest(JSON.parse(withProto))).toBe(false);
    // Names an object inherits are fields like any other the schema does not name.
    expect(expectAgreesWithSchema({ ...sdkBody, constructor: 'x', toString: 1 })).toBe(true);
  });

  it('never says yes to a body the schema refuses or would change, field by field', () => {
    let taken = 0;
    for (const field of FIELDS) {
      for (const value of PROBES) {
        if (expectAgreesWithSchema({ ...sdkBody, [field]: value })) taken++;
        const messages = [...sdkBody.messages, { role: 'user', content: 'x', [field]: value }];
        if (expectAgreesWithSchema({ ...sdkBody, messages })) taken++;
      }
    }
    // Some of each kind were taken, so the comparison above was exercised.
    expect(taken).toBeGreaterThan(100);
  });

  it('never says yes to a message the schema refuses, value by value', () => {
    for (const role of ['system', 'developer', 'user', 'assistant', 'tool', 'other', undefined]) {
      for (const content of PROBES) {
        expectAgreesWithSchema({ model: 'm', messages: [{ role, content }] });
        expectAgreesWithSchema({ model: 'm', messages: [{ role, content, tool_calls: content }] });
      }
    }
    for (const value of PROBES) expectAgreesWithSchema({ model: value, messages: value });
  });
});
