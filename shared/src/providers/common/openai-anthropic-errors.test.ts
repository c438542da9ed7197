import { describe, expect, it } from 'vitest';
import { buildUpstreamError, isRetryableStatus } from './openai-anthropic-errors';
import { redactCredentials } from './redact-credentials';

describe('isRetryableStatus', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    const retryable = [400, 401, 402, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529].filter(
      isRetryableStatus,
    );
    expect(retryable).toEqual([408, 409, 429, 500, 502, 503, 504, 529]);
  });
});

describe('redactCredentials', () => {
  it('masks key-shaped strings and auth header values', () => {
    expect(redactCredentials('key sk-proj-abc123DEF456 bad')).toBe('key sk-[redacted] bad');
    expect(redactCredentials('Authorization: Bearer eyJhbGciOi.x.y')).toBe(
      'Authorization: Bearer [redacted]',
    );
    expect(redactCredentials('api-key 0123456789abcdef0123456789abcdef rejected')).toBe(
      'api-key [redacted] rejected',
    );
    expect(redactCredentials('request req_011CSHoEeqs5C35K2UUqR7Fy failed')).toBe(
      'request req_011CSHoEeqs5C35K2UUqR7Fy failed',
    );
  });
});

describe('buildUpstreamError', () => {
  it('collapses whitespace and caps the message length', () => {
    const error = buildUpstreamError(500, { message: `a\n\n  b ${'word '.repeat(200)}` }, '');
    expect(error.message.startsWith('a b word')).toBe(true);
    expect(error.message.length).toBeLessThanOrEqual(501);
  });
});
