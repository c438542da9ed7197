import type { ProviderAdapter, UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest, CanonicalResponse, StreamEvent, UpstreamError } from '../../canonical/types';
import { geminiHeaders, geminiUrl } from './api';
import { toGeminiRequest } from './chat-request';
import { parseGeminiResponse } from './chat-response';
import { createGeminiStreamDecoder } from './chat-stream';
import { googleEmbeddings } from './embeddings';
import { mapGeminiError } from './errors';

/**
 * Google Gemini API (generativelanguage.googleapis.com), API-key auth.
 * `parseResponse` and `createStreamDecoder` take an optional target beyond the port's
 * signature so the model can be filled in when Gemini omits `modelVersion`.
 */
export const googleAdapter = {
  type: 'google',
  embeddings: googleEmbeddings,
  buildRequest(request: CanonicalRequest, target: UpstreamTarget): UpstreamCall {
    return {
      url: geminiUrl(target, request.stream),
      init: {
        method: 'POST',
        headers: geminiHeaders(target),
        body: JSON.stringify(toGeminiRequest(request, target.upstreamModel)),
      },
    };
  },
  parseResponse(body: unknown, target?: Pick<UpstreamTarget, 'upstreamModel'>): CanonicalResponse {
    return parseGeminiResponse(body, { model: target?.upstreamModel });
  },
  createStreamDecoder(
    target?: Pick<UpstreamTarget, 'upstreamModel'>,
  ): TransformStream<Uint8Array, StreamEvent> {
    return createGeminiStreamDecoder({ model: target?.upstreamModel });
  },
  mapError(status: number, bodyText: string): UpstreamError {
    return mapGeminiError(status, bodyText);
  },
} satisfies ProviderAdapter;
