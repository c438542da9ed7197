import { describe, expect, it } from 'vitest';
import type { UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { azureOpenAiAdapter } from './adapter';

const KEY = '0123456789abcdef0123456789abcdef';
const target = (overrides: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  baseUrl: 'https://contoso.openai.azure.com',
  apiKey: KEY,
  upstreamModel: 'gpt-4o',
  config: {},
  ...overrides,
});
const request: CanonicalRequest = {
  model: 'smart',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  maxTokens: 50,
  stream: false,
};
const build = (t: UpstreamTarget) => azureOpenAiAdapter.buildRequest(request, t) as UpstreamCall;

describe('azureOpenAiAdapter.buildRequest', () => {
  it('targets the deployment with the default api-version and the key in api-key only', () => {
    const call = build(target());
    expect(call.url).toBe(
      'https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
    );
    expect(call.init.headers).toEqual({ 'content-type': 'application/json', 'api-key': KEY });
    expect(JSON.parse(call.init.body)).toEqual({
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 50,
    });
    expect(call.init.body).not.toContain(KEY);
  });

  it('uses the configured deployment, deployment map and api-version, tolerating /openai/ in the base URL', () => {
    const fixed = build(
      target({
        baseUrl: 'https://contoso.openai.azure.com/openai/',
        config: { deployment: 'prod gpt4o', api_version: '2025-04-01-preview' },
      }),
    );
    expect(fixed.url).toBe(
      'https://contoso.openai.azure.com/openai/deployments/prod%20gpt4o/chat/completions?api-version=2025-04-01-preview',
    );
    const mapped = build(
      target({ config: { deployments: { 'gpt-4o': 'gpt4o-eu' }, deployment: 'fallback' } }),
    );
    expect(mapped.url).toContain('/deployments/gpt4o-eu/');
  });

  it('lets reasoning-model routes send max_completion_tokens', () => {
    const call = build(target({ config: { max_tokens_field: 'max_completion_tokens' } }));
    expect(JSON.parse(call.init.body)).toMatchObject({ max_completion_tokens: 50 });
  });

  it('declares its type and shares OpenAI decoding', () => {
    expect(azureOpenAiAdapter.type).toBe('azure_openai');
    expect(Object.keys(azureOpenAiAdapter.nativeCalls ?? {})).toEqual(['openai-chat']);
    const passthrough = azureOpenAiAdapter.nativeCalls?.['openai-chat']?.(
      { model: 'x', stream: true },
      target(),
    );
    expect(passthrough?.url).toBe(build(target()).url);
    expect(JSON.parse(passthrough?.init.body ?? '')).toEqual({ stream: true });
    expect(azureOpenAiAdapter.mapError(429, '{"error":{"code":"429","message":"Rate limit"}}')).toMatchObject(
      {
        retryable: true,
      },
    );
  });

  it('goes to the v1 Responses API for a route that says so, naming the deployment as the model', () => {
    const call = build(
      target({
        baseUrl: 'https://contoso.openai.azure.com/openai/',
        config: { api: 'responses', deployments: { 'gpt-4o': 'gpt4o-eu' }, api_version: '2024-10-21' },
        clientHeaders: new Headers({ 'openai-beta': 'responses=v1', authorization: 'Bearer client' }),
      }),
    );
    expect(call.url).toBe('https://contoso.openai.azure.com/openai/v1/responses');
    expect(call.init.headers).toEqual({
      'content-type': 'application/json',
      'api-key': KEY,
      'openai-beta': 'responses=v1',
    });
    expect(JSON.parse(call.init.body)).toEqual({
      model: 'gpt4o-eu',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
      max_output_tokens: 50,
      store: false,
    });
  });

  it('forwards the client’s openai-beta header on Chat Completions and passthrough calls', () => {
    const t = target({ clientHeaders: new Headers({ 'openai-beta': 'x', 'openai-organization': 'org-1' }) });
    expect(build(t).init.headers).toEqual({
      'content-type': 'application/json',
      'api-key': KEY,
      'openai-beta': 'x',
    });
    expect(azureOpenAiAdapter.nativeCalls?.['openai-chat']?.({ model: 'x' }, t).init.headers).toEqual({
      'content-type': 'application/json',
      'api-key': KEY,
      'openai-beta': 'x',
    });
  });

  it('reports OpenAI’s reasoning family', () => {
    expect(azureOpenAiAdapter.reasoningVendor).toBe('openai');
  });
});
