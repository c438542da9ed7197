import type { ChatRequest } from './request-schema';

/**
 * Recognises the common chat body — text messages and scalar options, what the SDKs send on
 * most calls — without running the zod schema, which was about 4 % of the gateway's CPU per
 * request. It only ever says yes to a body the schema accepts as it is: the schema has no
 * defaults or transforms, so its output for such a body equals the body. Anything else, valid
 * or not (tools, content parts, tool messages, metadata, a value out of range), is left to the
 * schema and its error messages. plain-request.test.ts holds the two to that.
 */
export function isPlainChatRequest(body: unknown): body is ChatRequest {
  if (!isPlainObject(body)) return false;
  if (!isNonEmptyString(body.model) || !plainMessages(body.messages)) return false;
  for (const key in body) {
    const check = FIELD_CHECKS.get(key);
    if (check === undefined) {
      if (key === '__proto__') return false;
      continue; // a field the schema does not name: passed through as it is
    }
    const value = body[key];
    if (value !== null && value !== undefined && !check(value)) return false;
  }
  return true;
}

type Check = (value: unknown) => boolean;

const numberIn =
  (min: number, max: number): Check =>
  (value) =>
    typeof value === 'number' && value >= min && value <= max;
const positiveInteger: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 1;
const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
/** Fields whose values only the schema checks: a plain body carries them null or not at all. */
const leftToSchema: Check = () => false;

/** The schema's fields (request-schema.ts): their check when the value is neither null nor absent. */
const FIELD_CHECKS: ReadonlyMap<string, Check> = new Map(
  Object.entries({
    model: isString,
    messages: Array.isArray,
    temperature: numberIn(0, 2),
    top_p: numberIn(0, 1),
    max_tokens: positiveInteger,
    max_completion_tokens: positiveInteger,
    n: (value) => value === 1,
    stop: (value) => typeof value === 'string' || (Array.isArray(value) && value.every(isString)),
    presence_penalty: numberIn(-2, 2),
    frequency_penalty: numberIn(-2, 2),
    seed: Number.isSafeInteger,
    user: isString,
    metadata: leftToSchema,
    stream: isBoolean,
    stream_options: (value) =>
      isPlainObject(value) &&
      !Object.hasOwn(value, '__proto__') &&
      (value.include_usage === null || value.include_usage === undefined || isBoolean(value.include_usage)),
    tools: leftToSchema,
    tool_choice: leftToSchema,
    parallel_tool_calls: isBoolean,
    response_format: leftToSchema,
    reasoning_effort: isString,
  } satisfies Record<string, Check>),
);

/** Assistant fields whose values only the schema checks. */
const ASSISTANT_EXTRAS = ['tool_calls', 'reasoning_content', 'reasoning_details'] as const;

/** Text messages of the roles whose schema is role + string content (assistant: no tool calls). */
function plainMessages(messages: unknown): boolean {
  if (!Array.isArray(messages) || messages.length === 0) return false;
  for (const message of messages) {
    if (!isPlainObject(message) || Object.hasOwn(message, '__proto__')) return false;
    const { role, content } = message;
    if (role === 'assistant') {
      if (content !== null && content !== undefined && typeof content !== 'string') return false;
      for (const key of ASSISTANT_EXTRAS)
        if (message[key] !== null && message[key] !== undefined) return false;
    } else if (role === 'user' || role === 'system' || role === 'developer') {
      if (typeof content !== 'string') return false;
    } else return false;
  }
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}
