import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { openAiAdapter } from './adapter';

const KEY = 'sk-proj-TESTKEY0123456789';
const target = (overrides: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  baseUrl: 'https://api.openai.com/v1',
  apiKey: KEY,
  upstreamModel: 'gpt-4o-mini',
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

describe('openAiAdapter.buildRequest', () => {
  it('posts to /chat/completions with a Bearer key in Authorization only', () => {
    const call = openAiAdapter.buildRequest(request, target({ baseUrl: 'https://api.openai.com/v1/' }));
    expect(call).toEqual({
      url: 'https://api.openai.com/v1/chat/completions',
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'Hi' }],
          max_completion_tokens: 50,
          stream: true,
          stream_options: { include_usage: true },
        }),
      },
    });
  });

  it('defaults the base URL and lets a route choose max_tokens', () => {
    const call = openAiAdapter.buildRequest(
      request,
      target({ baseUrl: '', config: { max_tokens_field: 'max_tokens' } }),
    );
    expect('url' in call && call.url).toBe('https://api.openai.com/v1/chat/completions');
    expect('init' in call && JSON.parse(call.init.body)).toMatchObject({ max_tokens: 50 });
  });

  it('declares its type and native format', () => {
    expect(openAiAdapter.type).toBe('openai');
    const body = { model: 'client-name', input: 'hi', unknown_field: 1 };
    const responses = openAiAdapter.nativeCalls?.['openai-responses']?.(body, target());
    expect(responses?.url).toBe('https://api.openai.com/v1/responses');
    expect(JSON.parse(responses?.init.body ?? '')).toMatchObject({ input: 'hi', unknown_field: 1 });
    expect(JSON.parse(responses?.init.body ?? '').model).not.toBe('client-name');
    expect(openAiAdapter.nativeCalls?.['openai-chat']?.(body, target()).url).toBe(
      'https://api.openai.com/v1/chat/completions',
    );
  });
});
