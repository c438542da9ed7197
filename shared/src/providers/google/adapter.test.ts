import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { googleAdapter } from './adapter';

const target: UpstreamTarget = {
  baseUrl: 'https://generativelanguage.googleapis.com/',
  apiKey: 'AIzaSyTESTKEY',
  upstreamModel: 'gemini-2.5-flash',
  config: {},
};
const request: CanonicalRequest = {
  model: 'fast',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  stream: false,
};

describe('Gemini adapter', () => {
  it('posts generateContent with the key in x-goog-api-key only', async () => {
    const call = await googleAdapter.buildRequest(request, target);
    expect(call.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
    );
    expect(call.url).not.toContain('AIza');
    expect(call.init.method).toBe('POST');
    expect(call.init.headers).toEqual({
      'content-type': 'application/json',
      'x-goog-api-key': 'AIzaSyTESTKEY',
    });
    expect(JSON.parse(call.init.body)).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('streams with streamGenerateContent?alt=sse', async () => {
    const call = await googleAdapter.buildRequest({ ...request, stream: true }, target);
    expect(call.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
  });

  it('accepts a versioned base URL, a models/ prefix and the default host', async () => {
    const versioned = {
      ...target,
      baseUrl: 'https://proxy.internal/google/v1beta',
      upstreamModel: 'models/gemini-2.0-flash',
    };
    expect((await googleAdapter.buildRequest(request, versioned)).url).toBe(
      'https://proxy.internal/google/v1beta/models/gemini-2.0-flash:generateContent',
    );
    expect((await googleAdapter.buildRequest(request, { ...target, baseUrl: '' })).url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
    );
  });

  it('fills the model from the target when the answer names none', () => {
    const parsed = googleAdapter.parseResponse(
      { candidates: [{ content: { parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] },
      target,
    );
    expect(parsed.model).toBe('gemini-2.5-flash');
    expect(parsed.id).toMatch(/^gen_[A-Za-z0-9_-]{24}$/);
  });
});
