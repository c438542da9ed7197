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
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: true,
    });
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
