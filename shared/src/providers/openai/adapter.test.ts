import { describe, expect, it } from 'vitest';
import { textEmbeddingRequest } from '../../../test/providers/common/test-fixtures';
import { runTransform } from '../../../test/providers/common/test-streams';
import type { UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { openAiAdapter } from './adapter';

const KEY = 'sk-proj-TESTKEY0123456789';
const target = (overrides: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  baseUrl: 'https://api.openai.com/v1',
  apiKey: KEY,
  upstreamModel: 'gpt-5-mini',
  config: {},
  ...overrides,
});
const request: CanonicalRequest = {
  model: 'fast',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  maxTokens: 50,
  stream: true,
};
const build = (t: UpstreamTarget) => openAiAdapter.buildRequest(request, t) as UpstreamCall;

/** What a client sends besides its body: its protocol headers and its own credentials. */
const clientHeaders = new Headers({
  'openai-beta': 'responses=experimental',
  authorization: 'Bearer sk-client-own-key-0000',
  'openai-organization': 'org-client',
  'openai-project': 'proj_client',
  'x-stainless-os': 'Linux',
});

describe('openAiAdapter.buildRequest', () => {
  it('posts translated requests to /responses, stateless, with a Bearer key in Authorization only', () => {
    expect(build(target({ baseUrl: 'https://api.openai.com/v1/' }))).toEqual({
      url: 'https://api.openai.com/v1/responses',
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({
          model: 'gpt-5-mini',
          input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
          max_output_tokens: 50,
          store: false,
          stream: true,
        }),
      },
    });
  });

  it('keeps Chat Completions for a route that says so, with its max tokens field', () => {
    const call = build(target({ baseUrl: '', config: { api: 'chat_completions' } }));
    expect(call.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(JSON.parse(call.init.body)).toEqual({
      model: 'gpt-5-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 50,
      stream: true,
      stream_options: { include_usage: true },
    });
    const legacy = build(target({ config: { api: 'chat_completions', max_tokens_field: 'max_tokens' } }));
    expect(JSON.parse(legacy.init.body)).toMatchObject({ max_tokens: 50 });
  });

  it('ignores an unknown api name and stays on the Responses API', () => {
    expect(build(target({ config: { api: 'assistants' } })).url).toBe('https://api.openai.com/v1/responses');
  });

  it('forwards only the client’s openai-beta header, on every call', () => {
    const t = target({ clientHeaders });
    const calls = [
      build(t),
      build({ ...t, config: { api: 'chat_completions' } }),
      openAiAdapter.nativeCalls?.['openai-responses']?.({ model: 'x', input: 'hi' }, t),
      openAiAdapter.nativeCalls?.['openai-chat']?.({ model: 'x', messages: [] }, t),
    ];
    for (const call of calls) {
      expect(call?.init.headers).toEqual({
        'content-type': 'application/json',
        authorization: `Bearer ${KEY}`,
        'openai-beta': 'responses=experimental',
      });
    }
  });

  it('forwards openai-beta on embeddings calls too', async () => {
    const calls = await openAiAdapter.embeddings?.buildCalls(
      textEmbeddingRequest(['a']),
      target({ clientHeaders }),
    );
    expect(calls?.[0]?.init.headers['openai-beta']).toBe('responses=experimental');
  });

  it('declares its type, reasoning family and native formats', () => {
    expect(openAiAdapter.type).toBe('openai');
    expect(openAiAdapter.reasoningVendor).toBe('openai');
    const body = { model: 'client-name', input: 'hi', unknown_field: 1 };
    const responses = openAiAdapter.nativeCalls?.['openai-responses']?.(body, target());
    expect(responses?.url).toBe('https://api.openai.com/v1/responses');
    expect(JSON.parse(responses?.init.body ?? '')).toEqual({
      input: 'hi',
      unknown_field: 1,
      model: 'gpt-5-mini',
    });
    expect(openAiAdapter.nativeCalls?.['openai-chat']?.(body, target()).url).toBe(
      'https://api.openai.com/v1/chat/completions',
    );
  });
});

describe('openAiAdapter answers', () => {
  it('reads whichever API answered by its shape', () => {
    const chat = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'from chat' }, finish_reason: 'stop' }],
    };
    const responses = {
      id: 'resp_1',
      object: 'response',
      model: 'gpt-5',
      status: 'completed',
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'from responses' }] },
      ],
    };
    expect(openAiAdapter.parseResponse(chat).content).toEqual([{ type: 'text', text: 'from chat' }]);
    expect(openAiAdapter.parseResponse(responses).content).toEqual([
      { type: 'text', text: 'from responses' },
    ]);
  });

  it('decodes whichever API’s stream arrives', async () => {
    const encode = (text: string) => [new TextEncoder().encode(text)];
    const chat = `data: ${JSON.stringify({ id: 'c', model: 'm', choices: [{ index: 0, delta: { content: 'a' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
    const responses = [
      { type: 'response.created', response: { id: 'r', model: 'm' } },
      { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'b' },
      { type: 'response.completed', response: { id: 'r', model: 'm', status: 'completed' } },
    ]
      .map((event) => `data: ${JSON.stringify(event)}\n\n`)
      .join('');
    const fromChat = await runTransform(openAiAdapter.createStreamDecoder(), encode(chat));
    const fromResponses = await runTransform(openAiAdapter.createStreamDecoder(), encode(responses));
    expect(fromChat).toContainEqual({ type: 'text_delta', index: 0, text: 'a' });
    expect(fromResponses).toContainEqual({ type: 'text_delta', index: 0, text: 'b' });
    expect(fromResponses.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });
});
