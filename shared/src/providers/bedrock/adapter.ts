import type { ProviderAdapter, UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest, CanonicalResponse, StreamEvent, UpstreamError } from '../../canonical/types';
import { bedrockRegion, bedrockUrl, signBedrockCall } from './api';
import { bedrockEmbeddings } from './embeddings';
import { mapBedrockError } from './errors';
import { toConverseRequest } from './request';
import { parseConverseResponse } from './response';
import { createConverseStreamDecoder } from './stream';

/**
 * Amazon Bedrock Runtime, Converse API, SigV4-signed. The route's api_key is
 * `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]`; `config.region` picks the region.
 * Reasoning comes back as Bedrock's own `reasoningContent` blocks (reasoningVendor).
 * `parseResponse` and `createStreamDecoder` take an optional target beyond the port's
 * signature because Converse answers never name the model.
 */
export const bedrockAdapter = {
  type: 'bedrock',
  reasoningVendor: 'bedrock',
  embeddings: bedrockEmbeddings,
  async buildRequest(request: CanonicalRequest, target: UpstreamTarget): Promise<UpstreamCall> {
    const region = bedrockRegion(target);
    const body = JSON.stringify(toConverseRequest(request, target));
    return signBedrockCall(bedrockUrl(target, region, request.stream), body, target, region, {
      stream: request.stream,
    });
  },
  parseResponse(body: unknown, target?: Pick<UpstreamTarget, 'upstreamModel'>): CanonicalResponse {
    return parseConverseResponse(body, { model: target?.upstreamModel });
  },
  createStreamDecoder(
    target?: Pick<UpstreamTarget, 'upstreamModel'>,
  ): TransformStream<Uint8Array, StreamEvent> {
    return createConverseStreamDecoder({ model: target?.upstreamModel });
  },
  mapError(status: number, bodyText: string): UpstreamError {
    return mapBedrockError(status, bodyText);
  },
} satisfies ProviderAdapter;
