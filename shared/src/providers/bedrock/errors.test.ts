import { describe, expect, it } from 'vitest';
import { mapBedrockError } from './errors';

describe('Bedrock error mapping', () => {
  it.each([
    [400, 'Malformed input request: #: required key [messages] not found', 'invalid_request_error', false],
    [403, 'The security token included in the request is invalid.', 'permission_error', false],
    [404, 'The provided model identifier is invalid.', 'not_found_error', false],
    [408, 'Model has timed out in processing the request.', 'timeout_error', true],
    [429, 'Too many requests, please wait before trying again.', 'rate_limit_error', true],
    [500, 'The system encountered an unexpected error during processing.', 'api_error', true],
    [503, 'Bedrock is unable to process your request.', 'api_error', true],
  ])('maps a bare {message} body with status %i', (status, message, type, retryable) => {
    expect(mapBedrockError(status, JSON.stringify({ message }))).toEqual({
      status,
      type,
      message,
      retryable,
    });
  });

  it('uses an exception name in the body when there is one', () => {
    expect(
      mapBedrockError(
        400,
        JSON.stringify({
          __type: 'com.amazon.coral.service#ServiceQuotaExceededException',
          message: 'Quota hit',
        }),
      ),
    ).toEqual({
      status: 400,
      type: 'rate_limit_error',
      message: 'ServiceQuotaExceededException: Quota hit',
      retryable: true,
    });
    expect(
      mapBedrockError(403, JSON.stringify({ __type: 'UnrecognizedClientException', Message: 'Bad key' })),
    ).toEqual({
      status: 403,
      type: 'authentication_error',
      message: 'UnrecognizedClientException: Bad key',
      retryable: false,
    });
    expect(
      mapBedrockError(429, JSON.stringify({ code: 'ModelNotReadyException:http://x', message: 'Warming' })),
    ).toMatchObject({
      type: 'overloaded_error',
      retryable: true,
    });
  });

  it('masks credentials quoted in a signature mismatch', () => {
    const message =
      "The request signature we calculated does not match. The Canonical String for this request should have been 'POST\n/model/x/converse\n\naccept:application/json\nx-amz-security-token:IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD\n' Credential=AKIAIOSFODNN7EXAMPLE/20250102";
    const mapped = mapBedrockError(403, JSON.stringify({ message }));
    expect(mapped.message).not.toContain('IQoJb3JpZ2luX2VjEJr');
    expect(mapped.message).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(mapped.message).toContain('signature we calculated does not match');
  });

  it('falls back on non-JSON bodies', () => {
    expect(mapBedrockError(502, 'upstream connect error')).toEqual({
      status: 502,
      type: 'api_error',
      message: 'HTTP 502: upstream connect error',
      retryable: true,
    });
  });
});
