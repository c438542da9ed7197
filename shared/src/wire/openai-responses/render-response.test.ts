import { describe, expect, it } from 'vitest';
import { plainTextResponse, textAndToolCallResponse } from '../../../test/wire/common/fixtures/canonical';
import { openAiClient } from '../../../test/wire/common/fixtures/sdk-clients';
import toolCallBody from '../../../test/wire/openai-responses/fixtures/response-tool-call.json';
import { renderResponsesResponse } from './render-response';

describe('openai-responses response rendering', () => {
  it('renders a message item and a function_call item with usage (golden)', () => {
    expect(renderResponsesResponse(textAndToolCallResponse, 'my-alias', 1_700_000_000)).toStrictEqual(
      toolCallBody,
    );
  });

  it('marks a length finish incomplete with max_output_tokens and zero cached tokens', () => {
    const body = renderResponsesResponse(plainTextResponse, 'my-alias', 1);
    expect(body).toMatchObject({
      id: 'resp_abc123',
      status: 'incomplete',
      completed_at: null,
      incomplete_details: { reason: 'max_output_tokens' },
      output: [{ type: 'message', id: 'msg_abc123_0', status: 'incomplete' }],
      usage: {
        input_tokens: 9,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 12,
        total_tokens: 21,
      },
    });
  });

  it('marks a canonical error finish failed', () => {
    const body = renderResponsesResponse({ ...plainTextResponse, finishReason: 'error' }, 'm');
    expect(body).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
  });

  it("is what the official SDK's responses.create returns (output_text included)", async () => {
    const body = renderResponsesResponse(textAndToolCallResponse, 'my-alias');
    const client = openAiClient(JSON.stringify(body), 'application/json');
    const response = await client.responses.create({ model: 'my-alias', input: 'x' });
    expect(response).toStrictEqual(body);
    expect(response.output_text).toBe('Let me check the weather — ☀️?');
  });
});
