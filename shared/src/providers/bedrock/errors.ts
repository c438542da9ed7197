import type { UpstreamError } from '../../canonical/types';
import { upstreamError } from '../common/errors';
import { isRecord, tryParseJson } from '../common/json';

/**
 * Bedrock errors are `{message}` bodies whose exception name travels in the
 * `x-amzn-ErrorType` header (`ThrottlingException:http://…`); some front ends put it in
 * the body as `__type`/`code` (`com.amazon.coral…#UnrecognizedClientException`). The port
 * hands mapError no headers, so the name is read from the body when present and the HTTP
 * status decides otherwise (Bedrock's statuses are specific enough: 429 throttling and
 * model-not-ready, 408 model timeout, 503 unavailable).
 */
const KNOWN: Readonly<Record<string, { type: string; retryable?: boolean }>> = {
  ThrottlingException: { type: 'rate_limit_error', retryable: true },
  ServiceQuotaExceededException: { type: 'rate_limit_error', retryable: true },
  ModelNotReadyException: { type: 'overloaded_error', retryable: true },
  ServiceUnavailableException: { type: 'overloaded_error', retryable: true },
  InternalServerException: { type: 'api_error', retryable: true },
  ModelStreamErrorException: { type: 'api_error', retryable: true },
  ModelTimeoutException: { type: 'timeout_error', retryable: true },
  ValidationException: { type: 'invalid_request_error' },
  ModelErrorException: { type: 'api_error' },
  ResourceNotFoundException: { type: 'not_found_error' },
  AccessDeniedException: { type: 'permission_error' },
  UnrecognizedClientException: { type: 'authentication_error' },
  InvalidSignatureException: { type: 'authentication_error' },
  ExpiredTokenException: { type: 'authentication_error' },
};

export function mapBedrockError(status: number, bodyText: string): UpstreamError {
  const body = tryParseJson(bodyText);
  if (!isRecord(body)) return upstreamError(status, {}, bodyText);
  const name = exceptionName(body.__type ?? body.code);
  const known = name === undefined ? undefined : KNOWN[name];
  const text = typeof body.message === 'string' ? body.message : body.Message;
  const message = typeof text === 'string' ? (name ? `${name}: ${text}` : text) : name;
  return upstreamError(status, { type: known?.type, message, retryable: known?.retryable }, bodyText);
}

/** The error type for an in-stream exception (`:exception-type`, lower camel case). */
export function bedrockStreamErrorType(name: string): string {
  const upper = exceptionName(name);
  return (upper && KNOWN[upper]?.type) || 'upstream_error';
}

/** `a.b#ThrottlingException`, `ThrottlingException:http://…`, `throttlingException` → `ThrottlingException`. */
function exceptionName(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined;
  const bare = raw.slice(raw.lastIndexOf('#') + 1).split(':')[0] ?? '';
  return bare === '' ? undefined : bare[0]!.toUpperCase() + bare.slice(1);
}
