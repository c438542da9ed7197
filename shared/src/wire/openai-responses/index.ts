import { encodeSseJson } from '../../sse/encoder';
import { watchNativeUsage } from '../common/native-usage-reader';
import { renamingPlan } from '../common/passthrough-plan';
import type { WireFormatWithUsageTap } from '../common/wire-format';
import { renderResponsesResponse } from './render-response';
import { restoreResponsesReasoning } from './sealed';
import { createResponsesStreamEncoder } from './stream-encoder';
import { parseResponsesRequest } from './to-canonical';
import { createResponsesNativeUsageReader, responsesStreamUsage, responsesUsageFromResponse } from './usage';

/** POST /v1/responses. */
export const openaiResponses: WireFormatWithUsageTap = {
  name: 'openai-responses',
  parseRequest: parseResponsesRequest,
  renderResponse: (response, clientModel, request) =>
    renderResponsesResponse(response, clientModel, undefined, request),
  streamErrorEvent: (error) =>
    encodeSseJson({ type: 'error', code: error.type, message: error.message, param: null }, 'error'),
  createStreamEncoder: createResponsesStreamEncoder,
  usageFromResponse: responsesUsageFromResponse,
  createNativeUsageReader: createResponsesNativeUsageReader,
  watchNativeUsage: (copy, onChunk) => watchNativeUsage(copy, responsesStreamUsage, false, onChunk),
  // Usage is always in these streams (response.completed): nothing to add. The model is named
  // in the Response object the lifecycle events (response.created, …) carry.
  preparePassthrough: renamingPlan,
  reasoningVendor: 'openai',
  restoreReasoning: restoreResponsesReasoning,
};

export { renderResponsesResponse } from './render-response';
export { type ResponsesRequest, responsesRequestSchema } from './request-schema';
export { createResponsesStreamEncoder } from './stream-encoder';
export { parseResponsesRequest, responsesToCanonical } from './to-canonical';
export { createResponsesNativeUsageReader, responsesUsageFromResponse } from './usage';
