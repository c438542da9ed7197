/**
 * What the Messages API refuses before answering, in its wording: fields it does not know (or
 * knows only under a beta the request did not name), `max_tokens` above the model's output
 * limit, roles other than user / assistant / system, and tool results that do not answer the
 * tool calls of the assistant turn just before them (or calls left unanswered).
 */
import { asArray, asRecord, type JsonObject } from './behaviour';

/** The Messages API's top-level fields (generally available ones). */
const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'max_tokens',
  'system',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'stream',
  'metadata',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'output_format',
  'service_tier',
  'container',
  'cache_control',
  'inference_geo',
]);

/** Fields the API takes only with their beta named in `anthropic-beta`. */
const BETA_FIELDS: Readonly<Record<string, readonly string[]>> = {
  context_management: ['context-management-2025-06-27'],
  mcp_servers: ['mcp-client-2025-04-04', 'mcp-client-2025-11-20'],
};

/** The most output tokens each model gives (the first match wins); 128k for names it does not know. */
const OUTPUT_LIMITS: ReadonlyArray<readonly [RegExp, number]> = [
  [/claude-opus-4(?:-[01])?(?:-\d{8})?$/, 32_000],
  [/claude-3-5-/, 8_192],
  [/claude-3-(?:opus|sonnet|haiku)/, 4_096],
  [/claude-/, 64_000],
];
const UNKNOWN_MODEL_LIMIT = 128_000;

export function outputLimit(model: string): number {
  for (const [pattern, limit] of OUTPUT_LIMITS) if (pattern.test(model)) return limit;
  return UNKNOWN_MODEL_LIMIT;
}

/** The betas a request names (`anthropic-beta`, comma-separated). */
export function betasOf(headers: Record<string, string>): Set<string> {
  return new Set(
    (headers['anthropic-beta'] ?? '')
      .split(',')
      .map((beta) => beta.trim())
      .filter((beta) => beta !== ''),
  );
}

/** What count_tokens takes: the fields that shape the prompt (its schema is as strict). */
const COUNT_TOKENS_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'output_format',
  'cache_control',
]);

function unknownField(
  body: JsonObject,
  betas: ReadonlySet<string>,
  known: ReadonlySet<string> = KNOWN_FIELDS,
): string | undefined {
  for (const field of Object.keys(body)) {
    if (known.has(field)) continue;
    const needs = BETA_FIELDS[field];
    if (needs?.some((beta) => betas.has(beta))) continue;
    return `${field}: Extra inputs are not permitted`;
  }
  return undefined;
}

function blocksOf(message: JsonObject): JsonObject[] {
  const content = message.content;
  return typeof content === 'string' ? [] : asArray(content).map((block) => asRecord(block) ?? {});
}

/**
 * Tool results must answer a tool_use of the assistant turn right before theirs, and every
 * tool_use of a turn must be answered in the next one. System messages are not turns.
 */
function toolPairingProblem(messages: unknown[]): string | undefined {
  let offered: Set<unknown> = new Set();
  for (const [i, value] of messages.entries()) {
    const message = asRecord(value) ?? {};
    if (message.role === 'system') continue;
    const blocks = blocksOf(message);
    const answered = new Set<unknown>();
    for (const block of blocks) {
      if (block.type === 'text' && block.text === '')
        return 'messages: text content blocks must be non-empty';
      if (block.type !== 'tool_result') continue;
      if (!offered.has(block.tool_use_id)) {
        return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
      answered.add(block.tool_use_id);
    }
    const missing = [...offered].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
    offered = new Set(blocks.filter((block) => block.type === 'tool_use').map((block) => block.id));
  }
  return undefined;
}

const ROLES: ReadonlySet<unknown> = new Set(['user', 'assistant', 'system']);

/** The first problem the Messages API would answer 400 for, or undefined. */
export function messagesProblem(body: JsonObject, betas: ReadonlySet<string>): string | undefined {
  if (typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  const unknown = unknownField(body, betas);
  if (unknown !== undefined) return unknown;
  const limit = outputLimit(body.model);
  if (body.max_tokens > limit) {
    return `max_tokens: ${body.max_tokens} > ${limit}, which is the maximum allowed number of output tokens for ${body.model}`;
  }
  const messages = asArray(body.messages);
  if (messages.length === 0) return 'messages: Field required';
  for (const [i, message] of messages.entries()) {
    const role = asRecord(message)?.role;
    if (!ROLES.has(role)) return `messages.${i}.role: Input should be 'user', 'assistant' or 'system'`;
  }
  if (asRecord(messages[0])?.role !== 'user') return 'messages: first message must use the "user" role';
  return toolPairingProblem(messages);
}

/** count_tokens refuses the generation fields (`max_tokens`, `stream`, …) as extra inputs. */
export function countTokensProblem(body: JsonObject, betas: ReadonlySet<string>): string | undefined {
  if (typeof body.model !== 'string') return 'model: Field required';
  return unknownField(body, betas, COUNT_TOKENS_FIELDS) ?? messagesProblem({ ...body, max_tokens: 1 }, betas);
}
