import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error';
import fullCanonical from './fixtures/request-full.canonical.json';
import fullRequest from './fixtures/request-full.json';
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

  it.each([
    [{ model: 'm' }, "Missing required parameter: 'input'"],
    [{ ...minimal, input: [] }, "Invalid 'input': must contain at least one item"],
    [{ ...minimal, temperature: 3 }, "Invalid 'temperature'"],
    [{ ...minimal, max_output_tokens: 0 }, "Invalid 'max_output_tokens'"],
    [{ ...minimal, input: [{ role: 'tool', content: 'x' }] }, "Invalid 'input[0].role'"],
    [{ ...minimal, input: [{ type: 'item_reference', id: 'x' }] }, "Invalid 'input[0].type'"],
    [
      { ...minimal, input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] },
      "Invalid 'input[0].content[0].type'",
    ],
    [
      { ...minimal, input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] },
      "Invalid 'input[0].content[0]': only image_url images are supported",
    ],
    [
      { ...minimal, input: [{ type: 'function_call', call_id: 'c', arguments: '{}' }] },
      "Missing required parameter: 'input[0].name'",
    ],
    [
      { ...minimal, input: [{ type: 'function_call_output', output: 'x' }] },
      "Missing required parameter: 'input[0].call_id'",
    ],
    [{ ...minimal, tools: [{ type: 'web_search' }] }, "Invalid 'tools[0].type'"],
    [
      { ...minimal, tools: [{ type: 'function', function: { name: 'f' } }] },
      "Missing required parameter: 'tools[0].name'",
    ],
    [
      { ...minimal, text: { format: { type: 'json_schema', name: 'x' } } },
      "Missing required parameter: 'text.format.schema'",
    ],
    [{ ...minimal, tool_choice: { type: 'function' } }, "'tool_choice"],
  ])('rejects %j with a message naming the field', (body, expected) => {
    expect(badRequestMessage(body)).toContain(expected);
  });
});
