import { encodeSseJson } from '../../sse/encoder';
import { renamingPlan } from '../common/passthrough-plan';
import type { WireFormatWithUsageTap } from '../common/wire-format';
import { renderMessagesResponse } from './render-response';
import { restoreMessagesReasoning } from './sealed';
import { createMessagesStreamEncoder } from './stream-encoder';
import { parseMessagesRequest } from './to-canonical';
import { createMessagesNativeUsageReader, messagesUsageFromResponse } from './usage';

/** POST /v1/messages. */
export const anthropicMessages: WireFormatWithUsageTap = {
  name: 'anthropic-messages',
  parseRequest: parseMessagesRequest,
  renderResponse: renderMessagesResponse,
  streamErrorEvent: (error) => encodeSseJson({ type: 'error', error }, 'error'),
  createStreamEncoder: createMessagesStreamEncoder,
  usageFromResponse: messagesUsageFromResponse,
  createNativeUsageReader: createMessagesNativeUsageReader,
  // Usage is always in these streams (message_start, message_delta): nothing to add. The model
  // is named once, in message_start.
  preparePassthrough: renamingPlan,
  reasoningVendor: 'anthropic',
  restoreReasoning: restoreMessagesReasoning,
};

export { type MessagesBody, renderMessagesResponse } from './render-response';
export { type MessagesRequest, messagesRequestSchema } from './request-schema';
export { createMessagesStreamEncoder } from './stream-encoder';
export { messagesToCanonical, parseCountTokensRequest, parseMessagesRequest } from './to-canonical';
export { createMessagesNativeUsageReader, messagesUsageFromResponse } from './usage';
