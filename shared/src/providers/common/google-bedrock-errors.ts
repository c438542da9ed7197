import type { UpstreamError } from '../../canonical/types';
import { AppError } from '../../http/app-error';
import { redactCredentials } from './redact-credentials';

/**
 * The vendor-neutral half of classifying an upstream failure for the Gemini and Bedrock
 * adapters: a type in the gateway's vocabulary, whether another route may succeed, and a
 * message safe to show callers.
 */
const TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

export function errorTypeForStatus(status: number): string {
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'upstream_error');
}

/** Timeouts, rate limits and server faults may pass on another route; request faults will not. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** An upstream message as clients and logs may see it: credentials masked, cut to `max`. */
export function safeMessage(text: string, max = 500): string {
  const masked = redactCredentials(text).replace(/\s+/g, ' ').trim();
  return masked.length > max ? `${masked.slice(0, max)}…` : masked;
}

export function upstreamError(
  status: number,
  found: { type?: string | undefined; message?: string | undefined; retryable?: boolean },
  bodyText: string,
): UpstreamError {
  const fallback = bodyText.trim() === '' ? `HTTP ${status}` : `HTTP ${status}: ${bodyText}`;
  return {
    status,
    type: found.type ?? errorTypeForStatus(status),
    message: safeMessage(found.message ?? fallback),
    retryable: found.retryable ?? isRetryableStatus(status),
  };
}

/** A 2xx body the adapter cannot read is the upstream's fault: surface it as a 502. */
export function unreadableUpstreamResponse(detail: string): AppError {
  return new AppError(502, `Upstream provider returned an unreadable response: ${detail}`, {
    type: 'upstream_error',
  });
}
