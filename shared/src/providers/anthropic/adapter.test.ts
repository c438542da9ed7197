import { describe, expect, it } from 'vitest';
import type { UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { anthropicAdapter } from './adapter';

const KEY = 'sk-ant-api03-TESTKEY';
const target = (baseUrl: string): UpstreamTarget => ({
  baseUrl,
  apiKey: KEY,
  upstreamModel: 'claude-sonnet-4-5-20250929',
  config: {},
});
const request: CanonicalRequest = {
  model: 'claude',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  stream: true,
};

describe('anthropicAdapter.buildRequest', () => {
  it.each([
    'https://api.anthropic.com',
    'https://api.anthropic.com/',
    'https://api.anthropic.com/v1',
    'https://api.anthropic.com/v1/',
    '',
  ])('posts to /v1/messages from base URL %j', (baseUrl) => {
    const call = anthropicAdapter.buildRequest(request, target(baseUrl)) as UpstreamCall;
    expect(call.url).toBe('https://api.anthropic.com/v1/messages');
  });

  it('sends the key in x-api-key only, with the pinned version', () => {
    const call = anthropicAdapter.buildRequest(request, target('https://api.anthropic.com')) as UpstreamCall;
    expect(call.init.method).toBe('POST');
    expect(call.init.headers).toEqual({
      'content-type': 'application/json',
      'x-api-key': KEY,
      'anthropic-version': '2023-06-01',
    });
    expect(call.init.body).not.toContain(KEY);
    expect(JSON.parse(call.init.body)).toEqual({
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 8192,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: true,
    });
  });

  it('asks Anthropic to count thinking tokens whenever the body thinks, once', () => {
    const plain = target('https://api.anthropic.com');
    const thinking = { model: 'm', max_tokens: 5, thinking: { type: 'adaptive' } };
    const native = anthropicAdapter.nativeCalls?.['anthropic-messages'];
    expect(native?.(thinking, plain).init.headers['anthropic-beta']).toBe('thinking-token-count-2026-05-13');
    const clientHeaders = new Headers({
      'anthropic-beta': 'effort-2025-11-24, thinking-token-count-2026-05-13',
    });
    expect(native?.(thinking, { ...plain, clientHeaders }).init.headers['anthropic-beta']).toBe(
      'effort-2025-11-24,thinking-token-count-2026-05-13',
    );
    const translated = anthropicAdapter.buildRequest(
      { ...request, reasoning: { effort: 'low' } },
      { ...plain, maxOutputTokens: 64_000 },
    ) as UpstreamCall;
    expect(translated.init.headers['anthropic-beta']).toBe('thinking-token-count-2026-05-13');
    expect(native?.({ model: 'm', max_tokens: 5 }, plain).init.headers).not.toHaveProperty('anthropic-beta');
  });

  it("forwards the client's anthropic-beta and anthropic-version, passthrough and count_tokens included", () => {
    const clientHeaders = new Headers({
      'anthropic-beta': 'context-management-2025-06-27,effort-2025-11-24',
      'anthropic-version': '2023-06-01',
      authorization: 'Bearer sluice-client-key',
      'user-agent': 'claude-cli/2.1.332',
    });
    const withClient = { ...target('https://api.anthropic.com'), clientHeaders };
    const calls = [
      anthropicAdapter.buildRequest(request, withClient) as UpstreamCall,
      anthropicAdapter.nativeCalls?.['anthropic-messages']?.({ model: 'm', max_tokens: 5 }, withClient),
      anthropicAdapter.countTokens?.({ model: 'm', messages: [] }, withClient),
    ];
    for (const call of calls) {
      expect(call?.init.headers).toEqual({
        'content-type': 'application/json',
        'x-api-key': KEY,
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'context-management-2025-06-27,effort-2025-11-24',
      });
    }
  });

  it('declares its type and native format', () => {
    expect(anthropicAdapter.type).toBe('anthropic');
    const call = anthropicAdapter.nativeCalls?.['anthropic-messages']?.(
      { model: 'client-name', max_tokens: 5, extra_field: true },
      target('https://api.anthropic.com/v1'),
    );
    expect(call?.url).toBe('https://api.anthropic.com/v1/messages');
    expect(JSON.parse(call?.init.body ?? '')).toEqual({
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 5,
      extra_field: true,
    });
  });
});
