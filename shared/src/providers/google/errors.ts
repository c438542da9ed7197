import type { UpstreamError } from '../../canonical/types';
import { errorTypeForStatus, upstreamError } from '../common/errors';
import { isRecord, tryParseJson } from '../common/json';

/**
 * Google's error body is `{error: {code, message, status, details}}` (google.rpc.Status);
 * the streaming endpoint without `alt=sse` wraps it in an array. Google answers a bad API
 * key with 400 INVALID_ARGUMENT plus an ErrorInfo reason, so that reason is read to report
 * an authentication error rather than a bad request.
 */
export function mapGeminiError(status: number, bodyText: string): UpstreamError {
  const details = readGeminiError(tryParseJson(bodyText));
  if (!details) return upstreamError(status, {}, bodyText);
  return upstreamError(
    status,
    { type: geminiErrorType(details, status), message: details.message },
    bodyText,
  );
}

export function geminiErrorType(details: GeminiErrorDetails, httpStatus: number): string {
  return details.keyInvalid ? 'authentication_error' : errorTypeForStatus(details.code ?? httpStatus);
}

export interface GeminiErrorDetails {
  code: number | undefined;
  message: string | undefined;
  keyInvalid: boolean;
}

/** The error inside a Google error body (object or one-element array), if there is one. */
export function readGeminiError(body: unknown): GeminiErrorDetails | undefined {
  const envelope = Array.isArray(body) ? body[0] : body;
  const error = isRecord(envelope) ? envelope.error : undefined;
  if (!isRecord(error)) return undefined;
  const details = Array.isArray(error.details) ? error.details : [];
  const statusName = typeof error.status === 'string' ? error.status : undefined;
  return {
    code: typeof error.code === 'number' ? error.code : undefined,
    message: typeof error.message === 'string' ? withStatus(error.message, statusName) : statusName,
    keyInvalid: details.some((detail) => isRecord(detail) && detail.reason === 'API_KEY_INVALID'),
  };
}

function withStatus(message: string, statusName: string | undefined): string {
  return statusName ? `${message} (${statusName})` : message;
}
