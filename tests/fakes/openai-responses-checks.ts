/**
 * What the Responses API refuses before answering, in OpenAI's wording: parameters it does not
 * know, sampling settings beside reasoning, tool outputs that answer no call in the input,
 * reasoning items whose encrypted content is not the server's own (or that it cannot find, as
 * with `store: false` nothing is kept), and function calls sent back without the reasoning item
 * they were answered with.
 */
import { asArray, asRecord, asString, type JsonObject } from './behaviour';
import type { FakeMemory } from './memory';
import { unseal } from './memory';

/** The Responses API's request body parameters. */
const KNOWN_PARAMETERS: ReadonlySet<string> = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'max_tool_calls',
  'temperature',
  'top_p',
  'top_logprobs',
  'truncation',
  'store',
  'metadata',
  'previous_response_id',
  'conversation',
  'reasoning',
  'text',
  'include',
  'stream',
  'stream_options',
  'background',
  'user',
  'safety_identifier',
  'prompt',
  'prompt_cache_key',
  'prompt_cache_retention',
  'service_tier',
  'context_management',
  // Sent by Codex to api.openai.com on every request.
  'client_metadata',
]);

export const REASONING_PURPOSE = 'openai-reasoning';

export interface ResponsesProblem {
  message: string;
  param: string | null;
  code: string | null;
}

/** What a sealed reasoning blob carries: the item's id and the model's full reasoning. */
export interface SealedReasoning {
  id: string;
  text: string;
}

export function openReasoning(memory: FakeMemory, blob: unknown): SealedReasoning | undefined {
  const payload = unseal(memory, REASONING_PURPOSE, blob);
  if (payload === undefined) return undefined;
  const parsed = asRecord(JSON.parse(payload));
  const id = asString(parsed?.id);
  const text = asString(parsed?.text);
  return id !== undefined && text !== undefined ? { id, text } : undefined;
}

function parameterProblem(body: JsonObject): ResponsesProblem | undefined {
  const unknown = Object.keys(body).find((key) => !KNOWN_PARAMETERS.has(key));
  if (unknown !== undefined) {
    return { message: `Unknown parameter: '${unknown}'.`, param: unknown, code: 'unknown_parameter' };
  }
  const effort = asRecord(body.reasoning)?.effort;
  if (effort !== undefined && effort !== 'none') {
    const sampling = ['temperature', 'top_p'].find((key) => body[key] !== undefined);
    if (sampling !== undefined) {
      return {
        message: `Unsupported parameter: '${sampling}' is not supported with this model.`,
        param: sampling,
        code: 'unsupported_parameter',
      };
    }
  }
  return undefined;
}

const CALL_TYPES: ReadonlySet<unknown> = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
  'computer_call',
]);
const OUTPUT_NAMES: Readonly<Record<string, string>> = {
  function_call_output: 'function call output',
  custom_tool_call_output: 'custom tool call output',
  local_shell_call_output: 'local shell call output',
  shell_call_output: 'shell call output',
  apply_patch_call_output: 'apply patch call output',
  computer_call_output: 'computer call output',
};

function shortened(blob: string): string {
  return blob.length <= 12 ? blob : `${blob.slice(0, 4)}...${blob.slice(-4)}`;
}

function reasoningProblem(
  memory: FakeMemory,
  item: JsonObject,
  store: boolean,
  seen: Set<string>,
): ResponsesProblem | 'verified' {
  const blob = item.encrypted_content;
  if (typeof blob === 'string') {
    const opened = openReasoning(memory, blob);
    if (opened === undefined) {
      return {
        message: `The encrypted content ${shortened(blob)} could not be verified. Reason: Encrypted content could not be decrypted or parsed.`,
        param: null,
        code: 'invalid_encrypted_content',
      };
    }
    seen.add(opened.id);
    return 'verified';
  }
  // Without its encrypted content a reasoning item is a reference to a stored one: none are.
  const id = String(item.id);
  const hint = store
    ? ''
    : ' Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.';
  return { message: `Item with id '${id}' not found.${hint}`, param: 'input', code: null };
}

/** The first input item the API refuses, and how many reasoning items it verified. */
function inputProblem(
  memory: FakeMemory,
  body: JsonObject,
): { problem?: ResponsesProblem; verified: number } {
  const calls = new Set<unknown>();
  const reasoningIds = new Set<string>();
  let verified = 0;
  const items = asArray(body.input).map((item) => asRecord(item) ?? {});
  for (const item of items) {
    if (item.type === 'reasoning') {
      if (typeof item.id === 'string') reasoningIds.add(item.id);
      const checked = reasoningProblem(memory, item, body.store !== false, reasoningIds);
      if (checked !== 'verified') return { problem: checked, verified };
      verified += 1;
    } else if (CALL_TYPES.has(item.type)) calls.add(item.call_id);
    const output = OUTPUT_NAMES[String(item.type)];
    if (output !== undefined && !calls.has(item.call_id)) {
      const message = `No tool call found for ${output} with call_id ${String(item.call_id)}.`;
      return { problem: { message, param: 'input', code: null }, verified };
    }
  }
  for (const item of items) {
    const required = typeof item.id === 'string' ? memory.reasoningForCall.get(item.id) : undefined;
    if (item.type === 'function_call' && required !== undefined && !reasoningIds.has(required)) {
      const message = `Item '${String(item.id)}' of type 'function_call' was provided without its required 'reasoning' item: '${required}'.`;
      return { problem: { message, param: 'input', code: null }, verified };
    }
  }
  return { verified };
}

/** The first problem the Responses API would answer 400 for; counts the reasoning it verified. */
export function responsesProblem(
  memory: FakeMemory,
  body: JsonObject,
): { problem?: ResponsesProblem; verified: number } {
  if (typeof body.model !== 'string') {
    return {
      problem: { message: "Missing required parameter: 'model'.", param: 'model', code: null },
      verified: 0,
    };
  }
  if (body.input === undefined && body.previous_response_id === undefined) {
    return {
      problem: { message: "Missing required parameter: 'input'.", param: 'input', code: null },
      verified: 0,
    };
  }
  const parameter = parameterProblem(body);
  if (parameter) return { problem: parameter, verified: 0 };
  return inputProblem(memory, body);
}
