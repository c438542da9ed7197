/**
 * Error classification shared by the OpenAI-family and Anthropic adapters. Each adapter
 * only knows where its vendor puts `type` and `message`; the policy lives here.
 */
import type { UpstreamError } from '../../canonical/types';
import { AppError } from '../../http/app-error';
import { redactCredentials } from './redact-credentials';

const MAX_MESSAGE_LENGTH = 500;

const FALLBACK_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  409: 'conflict_error',
  413: 'request_too_large',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/**
 * "Retryable" means another route may succeed. Matches the official OpenAI and Anthropic
 * SDKs' retry policy: 408 (timeout), 409 (lock conflict), 429 (rate or quota limit on this
 * route's key) and every 5xx including Anthropic's 529. Other 4xx describe the request or
 * the route's configuration and would fail the same way elsewhere.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export function fallbackErrorType(status: number): string {
  return FALLBACK_TYPES[status] ?? (status >= 500 ? 'api_error' : 'upstream_error');
}

function clean(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  const short =
    collapsed.length > MAX_MESSAGE_LENGTH ? `${collapsed.slice(0, MAX_MESSAGE_LENGTH)}…` : collapsed;
  return redactCredentials(short);
}

/** Builds the classified error from whatever the vendor body yielded (possibly nothing). */
export function buildUpstreamError(
  status: number,
  found: { type?: string | undefined; message?: string | undefined },
  bodyText: string,
): UpstreamError {
  const fallbackMessage = bodyText.trim() === '' ? '' : `: ${bodyText}`;
  const message = found.message ?? `Upstream returned HTTP ${status}${fallbackMessage}`;
  return {
    status,
    type: found.type ?? fallbackErrorType(status),
    message: clean(message),
    retryable: isRetryableStatus(status),
  };
}

/** A 2xx body the adapter cannot read is the upstream's fault: surface it as a 502. */
export function malformedUpstreamResponse(detail: string): AppError {
  return new AppError(502, `Upstream provider returned an unreadable response: ${detail}`, {
    type: 'upstream_error',
  });
}
