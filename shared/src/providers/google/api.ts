import type { UpstreamTarget } from '../../canonical/ports';
import { trimTrailingSlashes } from '../common/json';

/** Where and how to call the Gemini API. */
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/** The model id without the API's `models/` resource prefix (both spellings are accepted). */
export function geminiModelId(target: UpstreamTarget): string {
  return target.upstreamModel.replace(/^models\//, '');
}

/**
 * `{baseUrl}/v1beta/models/{model}:{method}`. A base URL that already ends in an API
 * version (`…/v1beta`) is used as is.
 */
export function geminiMethodUrl(target: UpstreamTarget, method: string): string {
  const base = trimTrailingSlashes(target.baseUrl || GEMINI_DEFAULT_BASE_URL);
  const root = /\/v\d+(?:alpha|beta)?\d*$/.test(base) ? base : `${base}/v1beta`;
  return `${root}/models/${encodeURIComponent(geminiModelId(target))}:${method}`;
}

/**
 * `:generateContent`, or `:streamGenerateContent?alt=sse` (SSE, one full
 * GenerateContentResponse per event, instead of a streamed JSON array).
 */
export function geminiUrl(target: UpstreamTarget, stream: boolean): string {
  return stream
    ? geminiMethodUrl(target, 'streamGenerateContent?alt=sse')
    : geminiMethodUrl(target, 'generateContent');
}

/** The key travels in a header, never in the `?key=` query string, so URLs are safe to log. */
export function geminiHeaders(target: UpstreamTarget): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-goog-api-key': target.apiKey,
  };
}
