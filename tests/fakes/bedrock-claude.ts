/**
 * Claude on Bedrock Converse: what it takes in `additionalModelRequestFields` (`thinking`,
 * `anthropic_beta`), the reasoning it answers with (`reasoningContent`, signed with the
 * server's key so it knows its own blocks when they come back: memory.ts), and the
 * ValidationExceptions it raises, in Bedrock's wording (Claude's own message behind "The model
 * returned the following errors: ").
 */
import { THINKING_DOCS, thinkingFirstError } from './anthropic-thinking';
import { asArray, asRecord, asString, type JsonObject } from './behaviour';
import { type FakeMemory, seal, sign, unseal, verify } from './memory';

export const MODEL_ERRORS = 'The model returned the following errors: ';
/** Claude's output cap on Converse when the request names none. */
const DEFAULT_MAX_TOKENS = 4096;

/** The betas Bedrock documents for Claude; any other one fails the whole request. */
export const FAKE_BEDROCK_BETAS: ReadonlySet<string> = new Set([
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'dev-full-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
]);

/** What Claude takes in `additionalModelRequestFields` (as far as the fake reads it). */
const CLAUDE_FIELDS: ReadonlySet<string> = new Set(['thinking', 'anthropic_beta', 'top_k']);

export const isClaude = (model: string): boolean => /anthropic\.claude|claude-/i.test(model);

const PURPOSE = 'bedrock-reasoning';

/**
 * The reasoning block the fake answers with: text with the server's signature, or (for a model
 * whose name says `redacted-thinking`) redacted content, a base64 blob only this server can read.
 */
export function reasoningBlock(memory: FakeMemory, model: string, thought: string): JsonObject {
  if (!model.includes('redacted-thinking')) {
    return {
      reasoningContent: { reasoningText: { text: thought, signature: sign(memory, PURPOSE, thought) } },
    };
  }
  const redactedContent = Buffer.from(seal(memory, PURPOSE, thought)).toString('base64');
  return { reasoningContent: { redactedContent } };
}

/** Whether a reasoningContent block is one this server issued, unaltered. */
function issuedHere(memory: FakeMemory, content: JsonObject): boolean {
  const text = asRecord(content.reasoningText);
  if (text) return verify(memory, PURPOSE, asString(text.text) ?? '', text.signature);
  const redacted = asString(content.redactedContent);
  return (
    redacted !== undefined &&
    unseal(memory, PURPOSE, Buffer.from(redacted, 'base64').toString()) !== undefined
  );
}

/** Claude's name for a Converse block, as its errors say it. */
function claudeType(block: JsonObject): string {
  if ('toolUse' in block) return 'tool_use';
  if ('toolResult' in block) return 'tool_result';
  if ('reasoningContent' in block) return 'thinking';
  if ('image' in block) return 'image';
  return 'text';
}

type Messages = Array<{ role: unknown; blocks: JsonObject[] }>;

function messagesOf(body: JsonObject): Messages {
  return asArray(body.messages).map((value) => {
    const message = asRecord(value) ?? {};
    return { role: message.role, blocks: asArray(message.content).map((block) => asRecord(block) ?? {}) };
  });
}

/** Every reasoning block sent back must be one this server issued, unaltered. */
function checkReasoning(memory: FakeMemory, messages: Messages): { error?: string; verified: number } {
  let verified = 0;
  for (const [i, message] of messages.entries()) {
    for (const [j, block] of message.blocks.entries()) {
      const content = asRecord(block.reasoningContent);
      if (!content) continue;
      if (!issuedHere(memory, content)) {
        const what =
          'reasoningText' in content ? '`signature` in `thinking`' : '`data` in `redacted_thinking`';
        return { error: `messages.${i}.content.${j}: Invalid ${what} block`, verified };
      }
      verified += 1;
    }
  }
  return { verified };
}

/** With thinking on, the turn that made the pending tool calls must start with its reasoning. */
function toolLoopWithoutThinking(messages: Messages): string | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'user' || !last.blocks.some((block) => 'toolResult' in block)) return undefined;
  const i = messages.length - 2;
  const first = messages[i]?.blocks[0];
  if (messages[i]?.role !== 'assistant' || !first || 'reasoningContent' in first) return undefined;
  return thinkingFirstError(i, claudeType(first));
}

function thinkingProblem(body: JsonObject, budget: unknown): string | undefined {
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1024) {
    return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  }
  const inference = asRecord(body.inferenceConfig) ?? {};
  const maxTokens = typeof inference.maxTokens === 'number' ? inference.maxTokens : DEFAULT_MAX_TOKENS;
  if (maxTokens <= budget) {
    return `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${THINKING_DOCS}#max-tokens-and-context-window-size`;
  }
  if (inference.temperature !== undefined && inference.temperature !== 1) {
    return `\`temperature\` may only be set to 1 when thinking is enabled. Please consult our documentation at ${THINKING_DOCS}#feature-compatibility`;
  }
  if (typeof inference.topP === 'number' && inference.topP < 0.95) {
    return `\`top_p\` must be greater than or equal to 0.95 or unset when thinking is enabled. Please consult our documentation at ${THINKING_DOCS}#feature-compatibility`;
  }
  const choice = asRecord(asRecord(body.toolConfig)?.toolChoice);
  if (choice && ('any' in choice || 'tool' in choice)) {
    return 'Thinking may not be enabled when tool_choice forces tool use.';
  }
  return toolLoopWithoutThinking(messagesOf(body));
}

function betaProblem(betas: unknown): string | undefined {
  if (betas === undefined) return undefined;
  if (!Array.isArray(betas)) return 'anthropic_beta: Input should be a valid list';
  return betas.every((beta) => typeof beta === 'string' && FAKE_BEDROCK_BETAS.has(beta))
    ? undefined
    : 'invalid beta flag';
}

export interface ClaudeFields {
  /** The ValidationException message, when refused. */
  error?: string;
  thinking: boolean;
  /** Reasoning blocks sent back and verified as this server's own. */
  verified: number;
}

/**
 * Checks the model's own fields and the reasoning sent back. Other model families refuse
 * Claude's fields.
 */
export function readClaudeFields(memory: FakeMemory, body: JsonObject, model: string): ClaudeFields {
  const fields = asRecord(body.additionalModelRequestFields) ?? {};
  if (!isClaude(model)) {
    const key = Object.keys(fields)[0];
    if (key === undefined) return { thinking: false, verified: 0 };
    const error = `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`;
    return { error: MODEL_ERRORS + error, thinking: false, verified: 0 };
  }
  const messages = messagesOf(body);
  const checked = checkReasoning(memory, messages);
  const extra = Object.keys(fields).find((key) => !CLAUDE_FIELDS.has(key));
  const thinking = asRecord(fields.thinking);
  const enabled = thinking?.type === 'enabled';
  const error =
    (extra !== undefined ? `${extra}: Extra inputs are not permitted` : undefined) ??
    betaProblem(fields.anthropic_beta) ??
    checked.error ??
    (enabled ? thinkingProblem(body, thinking.budget_tokens) : undefined);
  if (error !== undefined)
    return { error: MODEL_ERRORS + error, thinking: false, verified: checked.verified };
  return { thinking: enabled, verified: checked.verified };
}
