import { encodeSseJson } from '../../sse/encoder';
import { watchNativeUsage } from '../common/native-usage-reader';
import type { WireFormatWithUsageTap } from '../common/wire-format';
import { renderResponsesResponse } from './render-response';
import { createResponsesStreamEncoder } from './stream-encoder';
import { parseResponsesRequest } from './to-canonical';
import { createResponsesNativeUsageReader, responsesStreamUsage, responsesUsageFromResponse } from './usage';

/** POST /v1/responses. */
export const openaiResponses: WireFormatWithUsageTap = {
  name: 'openai-responses',
  parseRequest: parseResponsesRequest,
  renderResponse: (response, clientModel) => renderResponsesResponse(response, clientModel),
  streamErrorEvent: (error) =>
    encodeSseJson({ type: 'error', code: error.type, message: error.message, param: null }, 'error'),
  createStreamEncoder: createResponsesStreamEncoder,
  usageFromResponse: responsesUsageFromResponse,
  createNativeUsageReader: createResponsesNativeUsageReader,
  watchNativeUsage: (copy, onChunk) => watchNativeUsage(copy, responsesStreamUsage, false, onChunk),
  // Usage is always in these streams (message_delta, response.completed): nothing to add.
  preparePassthrough: (body) => ({ body }),
};

export { renderResponsesResponse } from './render-response';
export { type ResponsesRequest, responsesRequestSchema } from './request-schema';
export { createResponsesStreamEncoder } from './stream-encoder';
export { parseResponsesRequest, responsesToCanonical } from './to-canonical';
export { createResponsesNativeUsageReader, responsesUsageFromResponse } from './usage';
