import { encodeSseJson } from '../../sse/encoder';
import { concatBytes } from '../../util/bytes';
import { renamingPlan } from '../common/passthrough-plan';
import type { WireFormatWithUsageTap } from '../common/wire-format';
import { renderResponsesResponse } from './render-response';
import { restoreResponsesReasoning } from './sealed';
import { createResponsesStreamEncoder } from './stream-encoder';
import { parseResponsesRequest } from './to-canonical';
import { createResponsesNativeUsageReader, responsesUsageFromResponse } from './usage';

/**
 * A stream that fails part way: `error` (the SDK's ResponseStream rejects on it), then the
 * terminal `response.failed` raw-event clients such as Codex wait for. The Response's own id is
 * not known where the gateway cuts a passed-through stream, so the failure names none of its own.
 */
function responsesStreamError(error: { type: string; message: string }): Uint8Array {
  return concatBytes([
    encodeSseJson({ type: 'error', code: error.type, message: error.message, param: null }, 'error'),
    encodeSseJson(
      {
        type: 'response.failed',
        response: {
          id: 'resp_failed',
          object: 'response',
          status: 'failed',
          error: { code: 'server_error', message: error.message },
          incomplete_details: null,
          output: [],
        },
      },
      'response.failed',
    ),
  ]);
}

/** POST /v1/responses. */
export const openaiResponses: WireFormatWithUsageTap = {
  name: 'openai-responses',
  parseRequest: parseResponsesRequest,
  renderResponse: (response, clientModel, request) =>
    renderResponsesResponse(response, clientModel, undefined, request),
  streamErrorEvent: responsesStreamError,
  createStreamEncoder: createResponsesStreamEncoder,
  usageFromResponse: responsesUsageFromResponse,
  createNativeUsageReader: createResponsesNativeUsageReader,
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
