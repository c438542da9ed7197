/**
 * Anthropic error bodies (`{type: "error", error: {type, message}, request_id}`) →
 * classified upstream errors. 529 overloaded_error is retryable like any 5xx.
 */
import type { UpstreamError } from '../../canonical/types';
import { upstreamError } from '../common/errors';
import { asRecord, asString, tryParseJson } from '../common/json';

export function readAnthropicError(body: unknown): {
  type?: string | undefined;
  message?: string | undefined;
} {
  const error = asRecord(asRecord(body)?.error);
  return { type: asString(error?.type), message: asString(error?.message) };
}

export function mapAnthropicError(status: number, bodyText: string): UpstreamError {
  return upstreamError(status, readAnthropicError(tryParseJson(bodyText)), bodyText, {
    statusLabel: 'Upstream returned HTTP',
  });
}
