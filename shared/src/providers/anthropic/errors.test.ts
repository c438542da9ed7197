import { describe, expect, it } from 'vitest';
import { mapAnthropicError } from './errors';

const body = (type: string, message: string) =>
  JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' });

describe('mapAnthropicError', () => {
  it.each([
    [400, 'invalid_request_error', 'messages: text content blocks must be non-empty', false],
    [401, 'authentication_error', 'invalid x-api-key', false],
    [403, 'permission_error', 'Your API key does not have permission to use the specified resource.', false],
    [404, 'not_found_error', 'model: claude-9', false],
    [413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.', false],
    [429, 'rate_limit_error', 'This request would exceed the rate limit for your organization.', true],
    [500, 'api_error', 'Internal server error', true],
    [504, 'timeout_error', 'Request timed out', true],
    [529, 'overloaded_error', 'Overloaded', true],
  ] as const)('maps %i %s', (status, type, message, retryable) => {
    expect(mapAnthropicError(status, body(type, message))).toEqual({ status, type, message, retryable });
  });

  it('describes non-JSON bodies by status', () => {
    expect(mapAnthropicError(502, 'upstream connect error or disconnect/reset before headers')).toEqual({
      status: 502,
      type: 'api_error',
      message: 'Upstream returned HTTP 502: upstream connect error or disconnect/reset before headers',
      retryable: true,
    });
    expect(mapAnthropicError(529, '')).toMatchObject({ type: 'overloaded_error', retryable: true });
    expect(mapAnthropicError(400, '{"unexpected":true}')).toMatchObject({
      type: 'invalid_request_error',
      message: 'Upstream returned HTTP 400: {"unexpected":true}',
      retryable: false,
    });
  });

  it('never repeats a key-shaped string', () => {
    const error = mapAnthropicError(
      401,
      body('authentication_error', 'bad key sk-ant-api03-abcdefghijklmnop'),
    );
    expect(error.message).toBe('bad key sk-[redacted]');
  });
});
