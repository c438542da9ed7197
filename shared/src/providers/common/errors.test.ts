import { describe, expect, it } from 'vitest';
import { encodeEventStreamJson } from '../../../test/providers/common/eventstream-encoder';
import { runTransform } from '../../../test/providers/common/test-streams';
import type { ProviderAdapter } from '../../canonical/ports';
import type { StreamEvent } from '../../canonical/types';
import { providerAdapters } from '../registry';
import {
  ERROR_TYPE_BY_STATUS,
  errorTypeForStatus,
  isRetryableStatus,
  redactCredentials,
  safeMessage,
  upstreamError,
} from './errors';

/** Every provider type, with an error body in its vendor's own shape (no type name in it). */
const ADAPTERS: Record<string, ProviderAdapter> = providerAdapters;

const VENDOR_BODY: Record<string, (status: number, message: string) => string> = {
  openai: (_, message) => JSON.stringify({ error: { message, type: null, param: null, code: null } }),
  azure_openai: (_, message) => JSON.stringify({ error: { message } }),
  custom: (_, message) => JSON.stringify({ detail: message }),
  anthropic: (_, message) => JSON.stringify({ type: 'error', error: { message }, request_id: 'req_01' }),
  google: (code, message) => JSON.stringify({ error: { code, message } }),
  bedrock: (_, message) => JSON.stringify({ message }),
};

/** A vendor stream that fails with `message` mid-way, in each vendor's stream framing. */
const FAILING_STREAM: Record<string, (message: string) => Uint8Array> = {
  openai: (message) => sseBytes(`data: ${JSON.stringify({ error: { message, type: 'server_error' } })}\n\n`),
  azure_openai: (message) => sseBytes(`data: ${JSON.stringify({ error: { message, code: 'Boom' } })}\n\n`),
  custom: (message) => sseBytes(`data: ${JSON.stringify({ error: message })}\n\n`),
  anthropic: (message) =>
    sseBytes(
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`,
    ),
  google: (message) =>
    sseBytes(`data: ${JSON.stringify({ error: { code: 500, message, status: 'INTERNAL' } })}\r\n\r\n`),
  bedrock: (message) =>
    encodeEventStreamJson({
      messageType: 'exception',
      exceptionType: 'internalServerException',
      body: { message },
    }),
};

function sseBytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** One of each credential shape any vendor (or a proxy in front of one) may echo. */
const SECRETS: Record<string, { text: string; secret: string }> = {
  'OpenAI key': {
    text: 'sk-proj-abcdefghijklmnopqrstuvwxyz012345',
    secret: 'abcdefghijklmnopqrstuvwxyz012345',
  },
  'OpenAI legacy key': { text: 'sk-Ab12Cd34Ef56Gh78', secret: 'Ab12Cd34Ef56Gh78' },
  'Anthropic key': { text: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz', secret: 'abcdefghijklmnopqrstuvwxyz' },
  'Bearer token': { text: 'Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig', secret: 'eyJhbGciOiJIUzI1NiJ9' },
  'Basic credential': { text: 'Authorization: Basic dXNlcjpwYXNzd29yZA==', secret: 'dXNlcjpwYXNzd29yZA' },
  'AWS access key id': { text: 'Credential=AKIAIOSFODNN7EXAMPLE/20250102', secret: 'AKIAIOSFODNN7EXAMPLE' },
  'AWS session key id': { text: 'ASIAY34FZKBOKMUTVV7A', secret: 'ASIAY34FZKBOKMUTVV7A' },
  'AWS secret (labelled)': {
    text: 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  'AWS secret (bare)': {
    text: 'secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  'short labelled secret': { text: '"client_secret": "s3cr3t-v4lue"', secret: 's3cr3t-v4lue' },
  'Google key': {
    text: 'AIzaSyA1234567890abcdefghijklmnopqrstuv',
    secret: 'SyA1234567890abcdefghijklmnopqrstuv',
  },
  'Google key in a URL': { text: '/v1beta/models?key=not-an-AIza-shape', secret: 'not-an-AIza-shape' },
  'Azure api-key (32 hex)': {
    text: '0123456789abcdef0123456789abcdef',
    secret: '0123456789abcdef0123456789abcdef',
  },
  'Azure api-key header': { text: 'api-key: azk-9f8e7d6c', secret: 'azk-9f8e7d6c' },
  'x-api-key header': { text: 'x-api-key=proxy-key-1234', secret: 'proxy-key-1234' },
  'x-goog-api-key header': { text: '"x-goog-api-key":"goog-key-5678"', secret: 'goog-key-5678' },
};

describe('isRetryableStatus', () => {
  it('retries 408, 409, 429 and 5xx (529 included) only', () => {
    const statuses = [400, 401, 402, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529];
    expect(statuses.filter(isRetryableStatus)).toEqual([408, 409, 429, 500, 502, 503, 504, 529]);
  });
});

describe('the status → type table', () => {
  it('is the merge of both families’ tables (read here type by type)', () => {
    const statusesByType: Record<string, number[]> = {};
    for (const [status, type] of Object.entries(ERROR_TYPE_BY_STATUS)) {
      statusesByType[type] = [...(statusesByType[type] ?? []), Number(status)];
    }
    expect(statusesByType).toEqual({
      invalid_request_error: [400, 422],
      authentication_error: [401],
      billing_error: [402],
      permission_error: [403],
      not_found_error: [404],
      timeout_error: [408],
      conflict_error: [409],
      request_too_large: [413],
      rate_limit_error: [429],
      overloaded_error: [529],
    });
  });

  it('falls back to api_error for other 5xx and upstream_error for other statuses', () => {
    expect([500, 502, 503, 504, 520].map(errorTypeForStatus)).toEqual(Array(5).fill('api_error'));
    expect([405, 410, 418, 451].map(errorTypeForStatus)).toEqual(Array(4).fill('upstream_error'));
  });

  it.each(Object.keys(ADAPTERS))('is what %s uses when the vendor names no type', (type) => {
    const adapter = ADAPTERS[type]!;
    const body = VENDOR_BODY[type]!;
    for (const [status, expected] of Object.entries(ERROR_TYPE_BY_STATUS)) {
      const error = adapter.mapError(Number(status), body(Number(status), 'Something happened.'));
      expect(error.type, `${type} ${status}`).toBe(expected);
    }
    expect(adapter.mapError(503, body(503, 'Down')).type).toBe('api_error');
    expect(adapter.mapError(418, '').type).toBe('upstream_error');
  });
});

describe('retry policy in every family', () => {
  it.each(Object.keys(ADAPTERS))('%s: 409 and 529 move on to the next route', (type) => {
    const adapter = ADAPTERS[type]!;
    const body = VENDOR_BODY[type]!;
    for (const status of [409, 529]) {
      expect(adapter.mapError(status, body(status, 'Try again.')), `${type} ${status}`).toMatchObject({
        status,
        retryable: true,
      });
      expect(adapter.mapError(status, ''), `${type} ${status} empty`).toMatchObject({ retryable: true });
    }
  });

  it.each(Object.keys(ADAPTERS))('%s: the same statuses are retryable as everywhere else', (type) => {
    const adapter = ADAPTERS[type]!;
    const body = VENDOR_BODY[type]!;
    const statuses = [400, 401, 402, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529];
    const retryable = statuses.filter((status) => adapter.mapError(status, body(status, 'x')).retryable);
    expect(retryable).toEqual(statuses.filter(isRetryableStatus));
  });
});

describe('redactCredentials', () => {
  it.each(Object.entries(SECRETS))('masks a %s', (_, { text, secret }) => {
    const masked = redactCredentials(`upstream said: bad key ${text} (check it)`);
    expect(masked).not.toContain(secret);
    expect(masked).toContain('[redacted]');
    expect(masked).toContain('upstream said: bad key');
    expect(masked).toContain('(check it)');
  });

  it('keeps the shape of what it masks and leaves ordinary text alone', () => {
    expect(redactCredentials('key sk-proj-abc123DEF456 bad')).toBe('key sk-[redacted] bad');
    expect(redactCredentials('Authorization: Bearer eyJhbGciOi.x.y')).toBe(
      'Authorization: Bearer [redacted]',
    );
    expect(redactCredentials('api-key 0123456789abcdef0123456789abcdef rejected')).toBe(
      'api-key [redacted] rejected',
    );
    expect(redactCredentials('header api-key: abc123 rejected')).toBe('header api-key: [redacted] rejected');
    expect(redactCredentials('request req_011CSHoEeqs5C35K2UUqR7Fy failed')).toBe(
      'request req_011CSHoEeqs5C35K2UUqR7Fy failed',
    );
    expect(redactCredentials('invalid x-api-key')).toBe('invalid x-api-key');
    expect(redactCredentials('The secret key is wrong; pass an api key.')).toBe(
      'The secret key is wrong; pass an api key.',
    );
  });
});

describe('every key shape is masked in every family’s errors', () => {
  it.each(Object.keys(ADAPTERS))('%s: mapped errors, JSON or not', (type) => {
    const adapter = ADAPTERS[type]!;
    for (const [shape, { text, secret }] of Object.entries(SECRETS)) {
      for (const status of [400, 401, 403, 500]) {
        const vendor = adapter.mapError(status, VENDOR_BODY[type]!(status, `Bad credential ${text} given.`));
        expect(vendor.message, `${type} ${status} ${shape}`).not.toContain(secret);
        expect(vendor.message).toContain('Bad credential');
        const raw = adapter.mapError(status, `<html>proxy refused ${text}</html>`);
        expect(raw.message, `${type} ${status} ${shape} (non-JSON)`).not.toContain(secret);
      }
    }
  });

  it.each(Object.keys(ADAPTERS))('%s: stream error events', async (type) => {
    const adapter = ADAPTERS[type]!;
    for (const [shape, { text, secret }] of Object.entries(SECRETS)) {
      const events = await runTransform(adapter.createStreamDecoder(), [
        FAILING_STREAM[type]!(`Bad credential ${text} given.`),
      ]);
      const error = events.find(
        (event): event is Extract<StreamEvent, { type: 'error' }> => event.type === 'error',
      );
      expect(error?.message, `${type} ${shape}`).toContain('Bad credential');
      expect(error?.message, `${type} ${shape}`).not.toContain(secret);
    }
  });
});

describe('safeMessage', () => {
  it('collapses whitespace and caps the length', () => {
    const message = safeMessage(`a\n\n  b ${'word '.repeat(200)}`);
    expect(message.startsWith('a b word')).toBe(true);
    expect(message.length).toBeLessThanOrEqual(501);
  });

  it('masks before it cuts, so a key across the cut leaves no readable head', () => {
    const key = 'AIzaSyA1234567890abcdefghijklmnopqrstuv';
    const message = safeMessage(`${'x '.repeat(245)}${key} trailing`);
    expect(message).not.toContain('AIzaSy');
    expect(message).not.toContain('SyA12');
  });
});

describe('upstreamError', () => {
  it('describes a body without a message by status, in the family’s words', () => {
    expect(upstreamError(502, {}, 'upstream connect error')).toEqual({
      status: 502,
      type: 'api_error',
      message: 'HTTP 502: upstream connect error',
      retryable: true,
    });
    expect(upstreamError(503, {}, '  ', { statusLabel: 'Upstream returned HTTP' }).message).toBe(
      'Upstream returned HTTP 503',
    );
  });

  it('prefers what the vendor body said, including a vendor verdict on retrying', () => {
    expect(upstreamError(400, { type: 'rate_limit_error', message: 'Quota', retryable: true }, '')).toEqual({
      status: 400,
      type: 'rate_limit_error',
      message: 'Quota',
      retryable: true,
    });
  });
});
