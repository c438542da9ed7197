import { encodeSseJson } from '../../sse/encoder';
import { callShapes } from '../common/tool-shapes';
import type { WireFormatWithUsageTap } from '../common/wire-format';
import { prepareChatPassthrough } from './passthrough';
import { renderChatCompletion } from './render-response';
import { restoreChatReasoning } from './sealed';
import { createChatStreamEncoder } from './stream-encoder';
import { parseChatRequest } from './to-canonical';
import { chatUsageFromResponse, createChatNativeUsageReader } from './usage';

/** POST /v1/chat/completions. */
export const openaiChat: WireFormatWithUsageTap = {
  name: 'openai-chat',
  parseRequest: parseChatRequest,
  renderResponse: (response, clientModel, request) =>
    renderChatCompletion(response, clientModel, undefined, request),
  // The openai SDKs throw on a data event carrying `error`.
  streamErrorEvent: (error) =>
    encodeSseJson({ error: { message: error.message, type: error.type, param: null, code: null } }),
  createStreamEncoder: (clientModel, request) =>
    createChatStreamEncoder(clientModel, {
      includeUsage: request?.includeUsage === true,
      shapeOf: callShapes(request),
    }),
  usageFromResponse: chatUsageFromResponse,
  createNativeUsageReader: createChatNativeUsageReader,
  preparePassthrough: prepareChatPassthrough,
  restoreReasoning: restoreChatReasoning,
};

export { type ChatCompletionBody, renderChatCompletion } from './render-response';
export { type ChatRequest, chatRequestSchema } from './request-schema';
export { type ChatStreamOptions, createChatStreamEncoder } from './stream-encoder';
export { chatToCanonical, parseChatRequest } from './to-canonical';
export { chatUsageFromResponse, createChatNativeUsageReader } from './usage';
