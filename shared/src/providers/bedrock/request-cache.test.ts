import { describe, expect, it } from 'vitest';
import { canonicalRequest } from '../../../test/providers/common/test-fixtures';
import type { CanonicalMessage, CanonicalRequest, ToolDefinition } from '../../canonical/types';
import { type ConverseTarget, toConverseRequest } from './request';

const sonnet45: ConverseTarget = { upstreamModel: 'anthropic.claude-sonnet-4-5-20250929-v1:0' };
const point = { cachePoint: { type: 'default' } };
const hourPoint = { cachePoint: { type: 'default', ttl: '1h' } };
const tool = (name: string, cache?: { ttl?: '1h' }): ToolDefinition => ({
  kind: 'function',
  name,
  parameters: { type: 'object' },
  ...(cache && { cache }),
});
const spec = (name: string) => ({ toolSpec: { name, inputSchema: { json: { type: 'object' } } } });
const user = (text: string, cache?: object): CanonicalMessage => ({
  role: 'user',
  content: [{ type: 'text', text, ...(cache && { cache }) }],
});
const assistant = (text: string): CanonicalMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});

/** As Claude Code marks a turn: the tools, the system prompt (one hour) and the last message. */
const marked: CanonicalRequest = canonicalRequest({
  system: [
    { type: 'text', text: 'You are Claude Code.' },
    { type: 'text', text: 'Project notes.', cache: { ttl: '1h' } },
  ],
  tools: [tool('Read'), tool('Bash', {})],
  messages: [user('Fix it'), assistant('Done.'), user('Thanks', {})],
  maxTokens: 1000,
});

describe('Converse cache checkpoints', () => {
  it('places one after each marked system block, tool and message block', () => {
    expect(toConverseRequest(marked, sonnet45)).toEqual({
      system: [{ text: 'You are Claude Code.' }, { text: 'Project notes.' }, hourPoint],
      toolConfig: { tools: [spec('Read'), spec('Bash'), point] },
      messages: [
        { role: 'user', content: [{ text: 'Fix it' }] },
        { role: 'assistant', content: [{ text: 'Done.' }] },
        { role: 'user', content: [{ text: 'Thanks' }, point] },
      ],
      inferenceConfig: { maxTokens: 1000 },
    });
  });

  it('gives a one-hour mark the default lifetime where the model has no other', () => {
    const body = toConverseRequest(marked, { upstreamModel: 'anthropic.claude-3-7-sonnet-20250219-v1:0' });
    expect(body.system?.at(-1)).toEqual(point);
  });

  it('puts none among the tools for Nova, and none anywhere for models without caching', () => {
    const nova = toConverseRequest(marked, { upstreamModel: 'amazon.nova-pro-v1:0' });
    expect(nova.toolConfig?.tools).toEqual([spec('Read'), spec('Bash')]);
    expect(nova.system?.at(-1)).toEqual(point);
    expect(nova.messages.at(-1)?.content).toEqual([{ text: 'Thanks' }, point]);
    const llama = toConverseRequest(marked, {
      upstreamModel: 'meta.llama3-3-70b-instruct-v1:0',
      cacheBreakpoints: true,
    });
    expect(JSON.stringify(llama)).not.toContain('cachePoint');
  });

  it("places the route's breakpoints on a request without marks, and only the client's on one with", () => {
    const unmarked = canonicalRequest({
      system: [{ type: 'text', text: 'Be terse.' }],
      tools: [tool('Read')],
      messages: [user('One'), assistant('Ok'), user('Two'), assistant('Ok'), user('Three')],
    });
    const body = toConverseRequest(unmarked, { ...sonnet45, cacheBreakpoints: true });
    expect(body.toolConfig?.tools).toEqual([spec('Read'), point]);
    expect(body.system).toEqual([{ text: 'Be terse.' }, point]);
    expect(body.messages.map((message) => message.content)).toEqual([
      [{ text: 'One' }],
      [{ text: 'Ok' }],
      [{ text: 'Two' }, point],
      [{ text: 'Ok' }],
      [{ text: 'Three' }, point],
    ]);
    const own = toConverseRequest(marked, { ...sonnet45, cacheBreakpoints: true });
    expect(own).toEqual(toConverseRequest(marked, sonnet45));
  });

  it('keeps the last four of more than four', () => {
    const body = toConverseRequest(
      canonicalRequest({
        system: [{ type: 'text', text: 'S', cache: {} }],
        tools: [tool('Read', {})],
        messages: [user('A', {}), assistant('B'), user('C', {}), assistant('D'), user('E', {})],
      }),
      sonnet45,
    );
    expect(body.toolConfig?.tools).toEqual([spec('Read')]);
    expect(body.system).toEqual([{ text: 'S' }, point]);
    expect(JSON.stringify(body).match(/cachePoint/g)).toHaveLength(4);
  });

  it('marks a whole tool result for a mark inside it, and drops marks with no block before them', () => {
    const body = toConverseRequest(
      canonicalRequest({
        tools: [tool('Read')],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: ' ', cache: {} },
              { type: 'text', text: 'Read a' },
            ],
          },
          { role: 'assistant', content: [{ type: 'tool_call', id: 't1', name: 'Read', arguments: '{}' }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', toolCallId: 't1', content: [{ type: 'text', text: 'x', cache: {} }] },
            ],
          },
        ],
      }),
      sonnet45,
    );
    expect(body.messages[0]?.content).toEqual([{ text: 'Read a' }]);
    expect(body.messages[2]?.content).toEqual([
      { toolResult: { toolUseId: 't1', content: [{ text: 'x' }] } },
      point,
    ]);
  });
});
