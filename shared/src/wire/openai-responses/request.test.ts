import { describe, expect, it } from 'vitest';
import fullCanonical from '../../../test/wire/openai-responses/fixtures/request-full.canonical.json';
import fullRequest from '../../../test/wire/openai-responses/fixtures/request-full.json';
import { AppError } from '../../http/app-error';
import { parseResponsesRequest } from './to-canonical';

const minimal = { model: 'gpt-4.1', input: 'Hi' };

function badRequestMessage(body: unknown): string {
  try {
    parseResponsesRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('expected a 400');
}

describe('openai-responses request parsing', () => {
  it('maps every supported field and item type, regrouping calls and results into turns (golden)', () => {
    expect(parseResponsesRequest(fullRequest)).toStrictEqual(fullCanonical);
  });

  it('parses string input as one user message', () => {
    expect(parseResponsesRequest({ ...minimal, instructions: null, temperature: null })).toStrictEqual({
      model: 'gpt-4.1',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: false,
    });
  });

  it('maps string tool choices and the json_object / text formats', () => {
    expect(parseResponsesRequest({ ...minimal, tool_choice: 'required' }).toolChoice).toBe('required');
    expect(
      parseResponsesRequest({ ...minimal, text: { format: { type: 'json_object' } } }).responseFormat,
    ).toEqual({
      type: 'json_object',
    });
    expect(parseResponsesRequest({ ...minimal, text: { verbosity: 'low' } }).responseFormat).toBeUndefined();
  });

  it("keeps Codex's tools and items: namespaces, custom tools, hosted tools, reasoning, unknown items", () => {
    const fn = { type: 'function', name: 'spawn_agent', parameters: { type: 'object', properties: {} } };
    const search = { type: 'web_search', external_web_access: true };
    const own = {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Plan.' }],
      encrypted_content: 'gAAAA',
    };
    const reference = { type: 'item_reference', id: 'msg_1' };
    const fileImage = { type: 'input_image', file_id: 'file-1' };
    const parsed = parseResponsesRequest({
      ...minimal,
      reasoning: { effort: 'high', summary: 'auto' },
      input: [
        { type: 'message', role: 'developer', content: 'Be careful.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Read it' }, fileImage] },
        own,
        {
          type: 'function_call',
          call_id: 'c1',
          namespace: 'multi_agent_v1',
          name: 'spawn_agent',
          arguments: '{}',
        },
        { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin' },
        { type: 'function_call_output', call_id: 'c1', output: 'ok' },
        { type: 'custom_tool_call_output', call_id: 'c2', output: 'patched' },
        reference,
      ],
      tools: [
        { type: 'namespace', name: 'multi_agent_v1', description: 'Agents', tools: [fn] },
        { type: 'custom', name: 'apply_patch' },
        search,
      ],
    });
    expect(parsed.system).toStrictEqual([{ type: 'text', text: 'Be careful.' }]);
    expect(parsed.reasoning).toStrictEqual({ effort: 'high', summary: 'auto' });
    expect(parsed.messages).toStrictEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Read it' },
          { type: 'vendor', format: 'openai-responses', field: 'input[1].content[1]', block: fileImage },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Plan.', opaque: { vendor: 'openai', data: own } },
          { type: 'tool_call', id: 'c1', name: 'multi_agent_v1__spawn_agent', arguments: '{}' },
          { type: 'tool_call', id: 'c2', name: 'apply_patch', arguments: '{"input":"*** Begin"}' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok' }] },
          { type: 'tool_result', toolCallId: 'c2', content: [{ type: 'text', text: 'patched' }] },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'vendor', format: 'openai-responses', field: 'input[7]', block: reference }],
      },
    ]);
    expect(parsed.tools).toStrictEqual([
      {
        kind: 'function',
        name: 'multi_agent_v1__spawn_agent',
        parameters: { type: 'object', properties: {} },
        namespace: 'multi_agent_v1',
      },
      { kind: 'custom', name: 'apply_patch' },
      {
        kind: 'hosted',
        format: 'openai-responses',
        field: 'tools[2]',
        type: 'web_search',
        declaration: search,
      },
    ]);
  });

  it.each([
    [{ model: 'm' }, "Missing required parameter: 'input'"],
    [{ ...minimal, input: [] }, "Invalid 'input': must contain at least one item"],
    [{ ...minimal, temperature: 3 }, "Invalid 'temperature'"],
    [{ ...minimal, max_output_tokens: 0 }, "Invalid 'max_output_tokens'"],
    [{ ...minimal, input: [{ role: 'tool', content: 'x' }] }, "Invalid 'input[0].role'"],
    [{ ...minimal, input: [{ id: 'x' }] }, "'input[0]"],
    [
      { ...minimal, input: [{ role: 'user', content: [{ type: 'input_text' }] }] },
      "Missing required parameter: 'input[0].content[0].text'",
    ],
    [
      { ...minimal, input: [{ type: 'function_call', call_id: 'c', arguments: '{}' }] },
      "Missing required parameter: 'input[0].name'",
    ],
    [
      { ...minimal, input: [{ type: 'function_call_output', output: 'x' }] },
      "Missing required parameter: 'input[0].call_id'",
    ],
    [
      { ...minimal, tools: [{ type: 'namespace', name: 'ns' }] },
      "Missing required parameter: 'tools[0].tools'",
    ],
    [
      { ...minimal, tools: [{ type: 'function', function: { name: 'f' } }] },
      "Missing required parameter: 'tools[0].name'",
    ],
    [
      { ...minimal, text: { format: { type: 'json_schema', name: 'x' } } },
      "Missing required parameter: 'text.format.schema'",
    ],
    [{ ...minimal, tool_choice: 'sometimes' }, "'tool_choice"],
  ])('rejects %j with a message naming the field', (body, expected) => {
    expect(badRequestMessage(body)).toContain(expected);
  });
});
