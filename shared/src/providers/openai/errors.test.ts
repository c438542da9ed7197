import { describe, expect, it } from 'vitest';
import { mapOpenAiError } from './errors';

describe('mapOpenAiError', () => {
  it('maps a 400 invalid_request_error', () => {
    const body = JSON.stringify({
      error: {
        message: "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
        type: 'invalid_request_error',
        param: 'tool_choice',
        code: null,
      },
    });
    expect(mapOpenAiError(400, body)).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message: "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      retryable: false,
    });
  });

  it('maps a 401 without leaking the key fragment OpenAI echoes', () => {
    const body = JSON.stringify({
      error: {
        message:
          'Incorrect API key provided: sk-proj-********************************************************************************************************************************************************Ab1Z. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    const error = mapOpenAiError(401, body);
    expect(error).toMatchObject({ status: 401, type: 'invalid_request_error', retryable: false });
    expect(error.message).toContain('Incorrect API key provided: sk-[redacted]');
    expect(error.message).not.toContain('Ab1Z');
  });

  it('maps a 404 model_not_found', () => {
    const body = JSON.stringify({
      error: {
        message: 'The model `gpt-9` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    });
    expect(mapOpenAiError(404, body)).toMatchObject({ status: 404, retryable: false });
  });

  it('maps 429 rate limits and quota exhaustion as retryable', () => {
    const rate = JSON.stringify({
      error: {
        message:
          'Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000.',
        type: 'tokens',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
    expect(mapOpenAiError(429, rate)).toMatchObject({ status: 429, type: 'tokens', retryable: true });
    const quota = JSON.stringify({
      error: {
        message: 'You exceeded your current quota.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    });
    expect(mapOpenAiError(429, quota)).toMatchObject({ type: 'insufficient_quota', retryable: true });
  });

  it('maps 500 server_error as retryable', () => {
    const body = JSON.stringify({
      error: {
        message: 'The server had an error while processing your request.',
        type: 'server_error',
        param: null,
        code: null,
      },
    });
    expect(mapOpenAiError(500, body)).toEqual({
      status: 500,
      type: 'server_error',
      message: 'The server had an error while processing your request.',
      retryable: true,
    });
  });

  it('uses Azure codes when the type is null', () => {
    const body = JSON.stringify({
      error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' },
    });
    expect(mapOpenAiError(404, body)).toMatchObject({ type: 'DeploymentNotFound', retryable: false });
    const numeric = JSON.stringify({
      error: { code: '429', message: 'Requests have exceeded the token rate limit.' },
    });
    expect(mapOpenAiError(429, numeric)).toMatchObject({ type: 'rate_limit_error', retryable: true });
  });

  it('reads the shapes of common compatible servers', () => {
    expect(mapOpenAiError(400, '{"error":"model is required"}')).toMatchObject({
      type: 'invalid_request_error',
      message: 'model is required',
    });
    const vllm =
      '{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}';
    expect(mapOpenAiError(400, vllm)).toMatchObject({
      type: 'BadRequestError',
      message: 'max_tokens is too large',
    });
    expect(mapOpenAiError(404, '{"detail":"Not Found"}')).toMatchObject({
      type: 'not_found_error',
      message: 'Not Found',
    });
  });

  it('describes non-JSON bodies by status, shortened', () => {
    const html = `<html><head><title>502 Bad Gateway</title></head><body>${'x'.repeat(2000)}</body></html>`;
    const error = mapOpenAiError(502, html);
    expect(error).toMatchObject({ status: 502, type: 'api_error', retryable: true });
    expect(error.message.startsWith('Upstream returned HTTP 502: <html>')).toBe(true);
    expect(error.message.length).toBeLessThanOrEqual(501);
    expect(mapOpenAiError(503, '')).toMatchObject({ message: 'Upstream returned HTTP 503', retryable: true });
    expect(mapOpenAiError(408, 'timeout')).toMatchObject({ type: 'timeout_error', retryable: true });
  });
});
