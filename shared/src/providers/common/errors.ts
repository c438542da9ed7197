/**
 * The one error framework every provider adapter uses. An adapter only knows where its vendor
 * puts an error's name and message (and, for Bedrock, which exception names decide the retry
 * themselves); the policy lives here:
 *
 * - whether another route may succeed (`isRetryableStatus`),
 * - the client-facing `type` when the vendor gave none (`errorTypeForStatus`),
 * - what of an upstream message clients and logs may see (`redactCredentials`, `safeMessage`).
 */
import type { StreamEvent, UpstreamError } from '../../canonical/types';
import { AppError } from '../../http/app-error';

/** The error `type` for an upstream status when the vendor's body names none. */
export const ERROR_TYPE_BY_STATUS: Readonly<Record<number, string>> = {
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

export function errorTypeForStatus(status: number): string {
  return ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'upstream_error');
}

/**
 * "Retryable" means another route may succeed. The official OpenAI and Anthropic SDKs' retry
 * policy, for every vendor: 408 (timeout), 409 (lock conflict), 429 (rate or quota limit on
 * this route's key) and every 5xx including Anthropic's 529 overloaded. Other 4xx (400, 401,
 * 402, 403, 404, 413, 422, …) describe the request or the route's configuration and would fail
 * the same way elsewhere. Connect errors and timeouts never reach here: the route walk treats
 * them as failures on its own.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** `name: value`, `"name": "value"`, `name=value` — the value is what gets masked. */
const LABELLED_VALUE = String.raw`(["']?\s*[:=]\s*["']?)[^\s"'&,;}]+`;
const LABELLED_KEY = new RegExp(
  String.raw`\b((?:x-)?(?:goog-)?api[-_]?key|ocp-apim-subscription-key|x-amz-security-token)${LABELLED_VALUE}`,
  'gi',
);
const LABELLED_SECRET_VALUE = new RegExp(String.raw`\b([A-Za-z_-]*secret[A-Za-z_-]*)${LABELLED_VALUE}`, 'gi');

/**
 * Upstream messages reach clients and logs, and adapters never see the credential itself, so
 * anything key-shaped is masked — every vendor family's shapes in every adapter's messages: a
 * route's base URL may front another vendor, and proxies echo headers verbatim.
 *
 * - values labelled as keys or secrets: Azure's `api-key`, `x-api-key`, `x-goog-api-key`,
 *   `api_key`, `x-amz-security-token`, `?key=` in a URL, `aws_secret_access_key=…`,
 *   `client_secret: …`;
 * - OpenAI's and Anthropic's `sk-…` keys (`sk-proj-…`, `sk-ant-…`);
 * - Bearer/Basic credentials;
 * - AWS access key ids (AKIA/ASIA) and Google API keys (AIza…);
 * - long opaque runs: AWS secret keys (40 base64 characters), Azure's 32-hex keys, session
 *   tokens, the canonical request AWS quotes in SignatureDoesNotMatch.
 */
export function redactCredentials(text: string): string {
  return text
    .replace(LABELLED_KEY, '$1$2[redacted]')
    .replace(LABELLED_SECRET_VALUE, '$1$2[redacted]')
    .replace(/([?&]key=)[^\s"'&#]+/gi, '$1[redacted]')
    .replace(/\bsk-[A-Za-z0-9_*-]{6,}/g, 'sk-[redacted]')
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
    .replace(/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, '[redacted]')
    .replace(/\bAIza[0-9A-Za-z_-]{8,}/g, '[redacted]')
    .replace(/[A-Za-z0-9+/_-]{40,}={0,2}/g, '[redacted]')
    .replace(/\b[A-Za-z0-9]{32,}\b/g, '[redacted]');
}

const MAX_MESSAGE_LENGTH = 500;

/**
 * An upstream message as clients and logs may see it: credentials masked first (so a cut can
 * never leave the unmasked head of a key), whitespace collapsed, cut to `max` characters.
 */
export function safeMessage(text: string, max = MAX_MESSAGE_LENGTH): string {
  const masked = redactCredentials(text).replace(/\s+/g, ' ').trim();
  return masked.length > max ? `${masked.slice(0, max)}…` : masked;
}

/** The event that ends a vendor stream in error, its message made safe like any other. */
export function streamError(errorType: string, message: string): StreamEvent {
  return { type: 'error', errorType, message: safeMessage(message) };
}

/** What an adapter read from the vendor's error body; anything missing is decided here. */
export interface VendorErrorFields {
  type?: string | undefined;
  message?: string | undefined;
  /** A vendor-specific verdict (Bedrock's exception names); the status decides otherwise. */
  retryable?: boolean | undefined;
}

export interface UpstreamErrorOptions {
  /**
   * How a body without a readable message is described: `<statusLabel> 502: <body>`. The
   * OpenAI family and Anthropic say "Upstream returned HTTP", Gemini and Bedrock "HTTP".
   */
  statusLabel?: string;
}

/** Builds the classified upstream error from whatever the vendor body yielded (possibly nothing). */
export function upstreamError(
  status: number,
  found: VendorErrorFields,
  bodyText: string,
  options: UpstreamErrorOptions = {},
): UpstreamError {
  const label = `${options.statusLabel ?? 'HTTP'} ${status}`;
  const fallback = bodyText.trim() === '' ? label : `${label}: ${bodyText}`;
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
