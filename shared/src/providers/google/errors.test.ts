import { describe, expect, it } from 'vitest';
import { mapGeminiError } from './errors';

describe('Gemini error mapping', () => {
  it('reads an invalid key (400 + API_KEY_INVALID) as an authentication error', () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
          },
        ],
      },
    });
    expect(mapGeminiError(400, body)).toEqual({
      status: 400,
      type: 'authentication_error',
      message: 'API key not valid. Please pass a valid API key. (INVALID_ARGUMENT)',
      retryable: false,
    });
  });

  it.each([
    [400, 'INVALID_ARGUMENT', 'invalid_request_error', false],
    [403, 'PERMISSION_DENIED', 'permission_error', false],
    [404, 'NOT_FOUND', 'not_found_error', false],
    [429, 'RESOURCE_EXHAUSTED', 'rate_limit_error', true],
    [500, 'INTERNAL', 'api_error', true],
    [503, 'UNAVAILABLE', 'api_error', true],
    [504, 'DEADLINE_EXCEEDED', 'api_error', true],
  ])('maps %i %s', (status, name, type, retryable) => {
    const body = JSON.stringify({ error: { code: status, message: 'Something happened.', status: name } });
    expect(mapGeminiError(status, body)).toEqual({
      status,
      type,
      message: `Something happened. (${name})`,
      retryable,
    });
  });

  it('reads the array-wrapped form and falls back on non-JSON bodies', () => {
    const wrapped = JSON.stringify([
      { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } },
    ]);
    expect(mapGeminiError(429, wrapped).message).toBe('Quota exceeded (RESOURCE_EXHAUSTED)');
    expect(mapGeminiError(502, '<html>Bad Gateway</html>')).toEqual({
      status: 502,
      type: 'api_error',
      message: 'HTTP 502: <html>Bad Gateway</html>',
      retryable: true,
    });
    expect(mapGeminiError(408, '')).toMatchObject({
      type: 'timeout_error',
      retryable: true,
      message: 'HTTP 408',
    });
  });

  it('masks key-shaped text in messages', () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        message: 'Bad key AIzaSyA1234567890abcdefghijklmnopqrstuv given',
        status: 'INVALID_ARGUMENT',
      },
    });
    expect(mapGeminiError(400, body).message).toBe('Bad key [redacted] given (INVALID_ARGUMENT)');
  });
});
