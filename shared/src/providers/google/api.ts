import type { UpstreamTarget } from '../../canonical/ports';

/** Where and how to call the Gemini API. */
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/**
 * `{baseUrl}/v1beta/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse`
 * (SSE, one full GenerateContentResponse per event, instead of a streamed JSON array).
 * A base URL that already ends in an API version (`…/v1beta`) is used as is, and a model
 * given as `models/…` (the API's resource name) is accepted too.
 */
export function geminiUrl(target: UpstreamTarget, stream: boolean): string {
  const base = (target.baseUrl || GEMINI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const root = /\/v\d+(?:alpha|beta)?\d*$/.test(base) ? base : `${base}/v1beta`;
  const model = encodeURIComponent(target.upstreamModel.replace(/^models\//, ''));
  return stream
    ? `${root}/models/${model}:streamGenerateContent?alt=sse`
    : `${root}/models/${model}:generateContent`;
}

/** The key travels in a header, never in the `?key=` query string, so URLs are safe to log. */
export function geminiHeaders(target: UpstreamTarget): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-goog-api-key': target.apiKey,
  };
}
