import { describe, expect, it } from 'vitest';
import type { WireFormatName } from '../canonical/ports';
import { getWireFormat, wireFormats } from './index';

describe('wire format registry', () => {
  it.each([
    'openai-chat',
    'anthropic-messages',
    'openai-responses',
  ] as WireFormatName[])('serves %s under its own name with every WireFormat method', (name) => {
    const format = getWireFormat(name);
    expect(format.name).toBe(name);
    expect(wireFormats[name]).toBe(format);
    const reader = format.createNativeUsageReader();
    expect(reader.transform).toBeInstanceOf(TransformStream);
    expect(format.createStreamEncoder('m')).toBeInstanceOf(TransformStream);
    expect(format.usageFromResponse({})).toBeNull();
  });

  it('parses the same conversation from each format to the same canonical messages', () => {
    const chat = getWireFormat('openai-chat').parseRequest({
      model: 'm',
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'Hi' },
      ],
      max_tokens: 5,
    });
    const messages = getWireFormat('anthropic-messages').parseRequest({
      model: 'm',
      system: 'S',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const responses = getWireFormat('openai-responses').parseRequest({
      model: 'm',
      instructions: 'S',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
      max_output_tokens: 5,
    });
    expect(messages).toStrictEqual(chat);
    expect(responses).toStrictEqual(chat);
  });
});
