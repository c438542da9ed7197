import { describe, expect, it } from 'vitest';
import type { UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { customAdapter } from './adapter';

const target = (apiKey: string): UpstreamTarget => ({
  baseUrl: 'http://localhost:8000/v1/',
  apiKey,
  upstreamModel: 'meta-llama/Llama-3.1-8B-Instruct',
  config: {},
});
const request: CanonicalRequest = {
  model: 'llama',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  maxTokens: 64,
  stream: false,
};

describe('customAdapter.buildRequest', () => {
  it('posts OpenAI Chat Completions to the base URL with max_tokens and a Bearer key', () => {
    const call = customAdapter.buildRequest(request, target('secret-token')) as UpstreamCall;
    expect(call.url).toBe('http://localhost:8000/v1/chat/completions');
    expect(call.init.headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer secret-token',
    });
    expect(JSON.parse(call.init.body)).toEqual({
      model: 'meta-llama/Llama-3.1-8B-Instruct',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 64,
    });
  });

  it('sends no Authorization header without a key', () => {
    const call = customAdapter.buildRequest(request, target('')) as UpstreamCall;
    expect(call.init.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('declares its type and native format', () => {
    expect(customAdapter.type).toBe('custom');
    expect(Object.keys(customAdapter.nativeCalls ?? {})).toEqual(['openai-chat']);
  });

  it('goes to /responses for a route whose server has it, forwarding only openai-beta', () => {
    const call = customAdapter.buildRequest(request, {
      ...target('secret-token'),
      config: { api: 'responses' },
      clientHeaders: new Headers({ 'openai-beta': 'responses=v1', authorization: 'Bearer client' }),
    }) as UpstreamCall;
    expect(call.url).toBe('http://localhost:8000/v1/responses');
    expect(call.init.headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer secret-token',
      'openai-beta': 'responses=v1',
    });
    expect(JSON.parse(call.init.body)).toMatchObject({
      model: 'meta-llama/Llama-3.1-8B-Instruct',
      max_output_tokens: 64,
      store: false,
    });
    expect(customAdapter.reasoningVendor).toBe('openai');
  });
});
