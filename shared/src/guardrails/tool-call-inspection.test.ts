import { describe, expect, it } from 'vitest';
import type { CanonicalResponse, StreamEvent } from '../canonical/types';
import type { GuardrailMark } from './marks';
import { blockedCallNote, createToolCallInspection, inspectAnswerToolCalls } from './tool-call-inspection';
import { type ToolPolicy, toolPolicyOf, toolSettingSchema } from './tool-policy';

const policy = toolPolicyOf(
  toolSettingSchema.parse({
    deny: [
      { name: 'no-rm', tool: 'shell*', argument_regex: 'rm\\s+-rf' },
      { name: 'no-deletes', tool: '*delete*' },
    ],
  }),
) as ToolPolicy;

const answer = (content: CanonicalResponse['content']): CanonicalResponse => ({
  id: 'r1',
  model: 'm',
  content,
  finishReason: 'tool_calls',
  usage: { inputTokens: 5, outputTokens: 7 },
});

describe('inspect_tools on a model answer', () => {
  it('replaces a blocked call with a note naming tool and rule, finishing as content_filter', () => {
    const { response, marks } = inspectAnswerToolCalls(
      answer([
        { type: 'text', text: 'Let me clean up.' },
        { type: 'tool_call', id: 'c1', name: 'shell', arguments: '{"cmd":"rm -rf /"}' },
        { type: 'tool_call', id: 'c2', name: 'read_file', arguments: '{"path":"a"}' },
      ]),
      policy,
    );
    expect(response.content).toEqual([
      { type: 'text', text: 'Let me clean up.' },
      { type: 'text', text: blockedCallNote('shell', 'no-rm') },
      { type: 'tool_call', id: 'c2', name: 'read_file', arguments: '{"path":"a"}' },
    ]);
    expect(JSON.stringify(response)).not.toContain('rm -rf');
    expect(response.finishReason).toBe('content_filter');
    expect(response.usage).toEqual({ inputTokens: 5, outputTokens: 7 });
    expect(marks).toEqual([{ action: 'block', guardrail: 'inspect_tools', rule: 'no-rm' }]);
  });

  it('leaves an answer no rule matches as it is (arguments that are not JSON are read as text)', () => {
    const allowed = answer([{ type: 'tool_call', id: 'c1', name: 'shell', arguments: 'ls -la' }]);
    expect(inspectAnswerToolCalls(allowed, policy)).toEqual({ response: allowed, marks: [] });
    const raw = answer([{ type: 'tool_call', id: 'c1', name: 'shell', arguments: 'rm -rf x' }]);
    expect(inspectAnswerToolCalls(raw, policy).marks).toHaveLength(1);
    expect(inspectAnswerToolCalls(raw, null).response).toBe(raw);
  });
});

async function run(events: StreamEvent[]): Promise<{ out: StreamEvent[]; marks: GuardrailMark[] }> {
  const marks: GuardrailMark[] = [];
  const source = new ReadableStream<StreamEvent>({
    start(controller) {
      for (const event of events) controller.enqueue(event);
      controller.close();
    },
  });
  const out: StreamEvent[] = [];
  const reader = source.pipeThrough(createToolCallInspection(policy, (mark) => marks.push(mark))).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return { out, marks };
}

/** A tool call streamed in small argument deltas, split inside the matched words. */
function streamedCall(index: number, name: string, args: string): StreamEvent[] {
  const deltas = args.match(/.{1,3}/g) ?? [];
  return [
    { type: 'tool_call_start', index, id: `c${index}`, name },
    ...deltas.map((argumentsDelta) => ({ type: 'tool_call_delta' as const, index, argumentsDelta })),
    { type: 'block_stop', index },
  ];
}

describe('inspect_tools on a streamed answer', () => {
  it('holds each call to its end: an allowed one passes whole, a blocked one becomes the note', async () => {
    const allowed = streamedCall(1, 'read_file', '{"path":"notes.txt"}');
    const { out, marks } = await run([
      { type: 'start', id: 'r1', model: 'm' },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Working.' },
      { type: 'block_stop', index: 0 },
      ...allowed,
      ...streamedCall(2, 'shell', '{"cmd":"sudo rm  -rf /var"}'),
      { type: 'finish', finishReason: 'tool_calls' },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 2 } },
    ]);
    expect(out).toEqual([
      { type: 'start', id: 'r1', model: 'm' },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Working.' },
      { type: 'block_stop', index: 0 },
      ...allowed,
      { type: 'text_start', index: 2 },
      { type: 'text_delta', index: 2, text: blockedCallNote('shell', 'no-rm') },
      { type: 'block_stop', index: 2 },
      { type: 'finish', finishReason: 'content_filter' },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 2 } },
    ]);
    expect(marks).toEqual([{ action: 'block', guardrail: 'inspect_tools', rule: 'no-rm' }]);
  });

  it('judges a call still open at the finish, or when the stream breaks off', async () => {
    const open = streamedCall(0, 'github_delete_repo', '{}').slice(0, -1);
    const finished = await run([...open, { type: 'finish', finishReason: 'tool_calls' }]);
    expect(finished.out.map((e) => e.type)).toEqual(['text_start', 'text_delta', 'block_stop', 'finish']);
    const broken = await run(open);
    expect(broken.out.map((e) => e.type)).toEqual(['text_start', 'text_delta']);
    expect(broken.marks).toEqual([{ action: 'block', guardrail: 'inspect_tools', rule: 'no-deletes' }]);
  });
});
