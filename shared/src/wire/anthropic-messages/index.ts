import { encodeSseJson } from '../../sse/encoder';
import { watchNativeUsage } from '../common/native-usage-reader';
import type { WireFormatWithUsageTap } from '../common/wire-format';
import { renderMessagesResponse } from './render-response';
import { createMessagesStreamEncoder } from './stream-encoder';
import { parseMessagesRequest } from './to-canonical';
import { createMessagesNativeUsageReader, messagesStreamUsage, messagesUsageFromResponse } from './usage';

/** POST /v1/messages. */
export const anthropicMessages: WireFormatWithUsageTap = {
  name: 'anthropic-messages',
  parseRequest: parseMessagesRequest,
  renderResponse: renderMessagesResponse,
  streamErrorEvent: (error) => encodeSseJson({ type: 'error', error }, 'error'),
  createStreamEncoder: createMessagesStreamEncoder,
  usageFromResponse: messagesUsageFromResponse,
  createNativeUsageReader: createMessagesNativeUsageReader,
  watchNativeUsage: (copy, onChunk) => watchNativeUsage(copy, messagesStreamUsage, true, onChunk),
  // Usage is always in these streams (message_delta, response.completed): nothing to add.
  preparePassthrough: (body) => ({ body }),
};

export { type MessagesBody, renderMessagesResponse } from './render-response';
export { type MessagesRequest, messagesRequestSchema } from './request-schema';
export { createMessagesStreamEncoder } from './stream-encoder';
export { messagesToCanonical, parseMessagesRequest } from './to-canonical';
export { createMessagesNativeUsageReader, messagesUsageFromResponse } from './usage';
