/**
 * What Chat Completions refuses before answering, in OpenAI's wording: a missing model, no
 * messages, unknown roles, `stream_options` without streaming, tool messages that do not answer
 * the tool calls of the assistant message before them (or calls left unanswered), and, on
 * OpenAI and Azure (`strict`), parameters they do not know. Custom OpenAI-compatible servers
 * (vLLM and the like) take extra parameters.
 */
import { asArray, asRecord, type JsonObject } from './behaviour';

/** Chat Completions' request body parameters. */
const KNOWN_PARAMETERS: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'audio',
  'frequency_penalty',
  'function_call',
  'functions',
  'logit_bias',
  'logprobs',
  'max_completion_tokens',
  'max_tokens',
  'metadata',
  'modalities',
  'n',
  'parallel_tool_calls',
  'prediction',
  'presence_penalty',
  'prompt_cache_key',
  'prompt_cache_retention',
  'reasoning_effort',
  'response_format',
  'safety_identifier',
  'seed',
  'service_tier',
  'stop',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'user',
  'verbosity',
  'web_search_options',
  // Azure's "On Your Data" extension.
  'data_sources',
]);

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

function callIds(message: JsonObject | undefined): unknown[] {
  return asArray(message?.tool_calls).map((call) => asRecord(call)?.id);
}

/** Tool messages answer the calls of the assistant message before them, all of them. */
function toolMessagesProblem(messages: JsonObject[]): string | undefined {
  let pending: unknown[] = [];
  let calls: unknown[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      if (calls.length === 0) {
        return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
      }
      if (!calls.includes(message.tool_call_id)) {
        return `Invalid parameter: 'tool_call_id' of '${String(message.tool_call_id)}' not found in 'tool_calls' of previous message.`;
      }
      pending = pending.filter((id) => id !== message.tool_call_id);
      continue;
    }
    if (pending.length > 0) {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`;
    }
    calls = message.role === 'assistant' ? callIds(message) : [];
    pending = [...calls];
  }
  return undefined;
}

export function chatProblem(
  body: JsonObject,
  options: { needsModel: boolean; strict: boolean },
): string | undefined {
  if (options.needsModel && typeof body.model !== 'string') return 'you must provide a model parameter';
  if (options.strict) {
    const unknown = Object.keys(body).find((key) => !KNOWN_PARAMETERS.has(key));
    if (unknown !== undefined) return `Unrecognized request argument supplied: ${unknown}`;
  }
  const messages = asArray(body.messages).map((message) => asRecord(message) ?? {});
  if (messages.length === 0) return "[] is too short - 'messages'";
  if (body.stream_options !== undefined && body.stream !== true) {
    return "The 'stream_options' parameter is only allowed when 'stream' is enabled.";
  }
  for (const [i, message] of messages.entries()) {
    if (!ROLES.has(String(message.role)))
      return `Invalid value: '${String(message.role)}' at messages[${i}].role`;
  }
  return toolMessagesProblem(messages);
}
