import type { ProviderAdapter, UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest, CanonicalResponse, StreamEvent, UpstreamError } from '../../canonical/types';
import { postJson } from '../common/json';
import { geminiHeaders, geminiUrl } from './api';
import { googleEmbeddings } from './embeddings';
import { mapGeminiError } from './errors';
import { toGeminiRequest } from './request';
import { parseGeminiResponse } from './response';
import { createGeminiStreamDecoder } from './stream';

/**
 * Google Gemini API (generativelanguage.googleapis.com), API-key auth.
 * `parseResponse` and `createStreamDecoder` take an optional target beyond the port's
 * signature so the model can be filled in when Gemini omits `modelVersion`.
 */
export const googleAdapter = {
  type: 'google',
  embeddings: googleEmbeddings,
  buildRequest(request: CanonicalRequest, target: UpstreamTarget): UpstreamCall {
    const body = toGeminiRequest(request, target.upstreamModel);
    return postJson(geminiUrl(target, request.stream), geminiHeaders(target), body);
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
