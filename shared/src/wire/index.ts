import type { WireFormatName } from '../canonical/ports';
import { anthropicMessages } from './anthropic-messages';
import type { WireFormatWithUsageTap } from './common/wire-format';
import { openaiChat } from './openai-chat';
import { openaiResponses } from './openai-responses';

/** Every public wire format, by name. */
export const wireFormats: Readonly<Record<WireFormatName, WireFormatWithUsageTap>> = {
  'openai-chat': openaiChat,
  'anthropic-messages': anthropicMessages,
  'openai-responses': openaiResponses,
};

export function getWireFormat(name: WireFormatName): WireFormatWithUsageTap {
  return wireFormats[name];
}

export type { NativeUsageReader } from './common/native-usage-reader';
export type { WireFormatWithUsageTap } from './common/wire-format';
export { anthropicMessages, openaiChat, openaiResponses };
