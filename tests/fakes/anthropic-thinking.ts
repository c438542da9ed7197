/**
 * Extended thinking on the fake Anthropic Messages API, with the rules the real one enforces:
 * `thinking` (`enabled` with a budget, or `adaptive`) makes the answer start with a `thinking`
 * block signed by the server (`display: "omitted"` leaves its text empty, the signature still
 * covers what was shown); every thinking block sent back must carry the server's signature of
 * its text unaltered; and while a tool loop is in progress with thinking on, the assistant turn
 * that made the pending calls must start with its thinking block.
 */
import { asRecord, contentBlocks, type JsonObject } from './behaviour';
import { type FakeMemory, sign, verify } from './memory';

export const THINKING_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';
const PURPOSE = 'anthropic-thinking';
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';

export interface ThinkingSetting {
  /** The thinking text is left out of the answer (only the signature is given). */
  omitted: boolean;
}

/** The request's thinking setting, or undefined when thinking is off. */
export function thinkingSetting(body: JsonObject): ThinkingSetting | undefined {
  const thinking = asRecord(body.thinking);
  if (thinking?.type !== 'enabled' && thinking?.type !== 'adaptive') return undefined;
  return { omitted: thinking.display === 'omitted' };
}

/** The block the answer starts with, and the signature that lets the server know it again. */
export function thinkingBlock(memory: FakeMemory, thought: string, setting: ThinkingSetting): JsonObject {
  const shown = setting.omitted ? '' : thought;
  return { type: 'thinking', thinking: shown, signature: sign(memory, PURPOSE, shown) };
}

/** The settings beside `thinking` that Anthropic refuses, in its wording. */
export function thinkingSettingsProblem(body: JsonObject, betas: ReadonlySet<string>): string | undefined {
  const thinking = asRecord(body.thinking);
  if (thinking === undefined) return undefined;
  if (!['enabled', 'adaptive', 'disabled'].includes(String(thinking.type))) {
    return "thinking: Input tag does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'";
  }
  if (thinking.type === 'disabled') return undefined;
  if (thinking.type === 'enabled') {
    const budget = thinking.budget_tokens;
    if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1024) {
      return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    }
    if (
      !betas.has(INTERLEAVED_THINKING_BETA) &&
      typeof body.max_tokens === 'number' &&
      budget >= body.max_tokens
    ) {
      return `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${THINKING_DOCS}#max-tokens-and-context-window-size`;
    }
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    return `\`temperature\` may only be set to 1 when thinking is enabled or in adaptive mode. Please consult our documentation at ${THINKING_DOCS}#feature-compatibility`;
  }
  if (typeof body.top_p === 'number' && body.top_p < 0.95) {
    return `\`top_p\` must be greater than or equal to 0.95 or unset when thinking is enabled or in adaptive mode. Please consult our documentation at ${THINKING_DOCS}#feature-compatibility`;
  }
  const choice = asRecord(body.tool_choice)?.type;
  if (choice === 'any' || choice === 'tool')
    return 'Thinking may not be enabled when tool_choice forces tool use.';
  return undefined;
}

const blocksOf = (message: unknown): JsonObject[] => contentBlocks(asRecord(message)?.content);

/**
 * Checks every thinking block sent back against the server's signatures; returns the error in
 * Anthropic's wording, or the number of blocks verified.
 */
export function verifyThinkingBlocks(
  memory: FakeMemory,
  messages: unknown[],
): { error?: string; verified: number } {
  let verified = 0;
  for (const [i, message] of messages.entries()) {
    for (const [j, block] of blocksOf(message).entries()) {
      if (block.type === 'thinking') {
        if (typeof block.thinking !== 'string' || !verify(memory, PURPOSE, block.thinking, block.signature)) {
          return {
            error: `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`,
            verified,
          };
        }
        verified += 1;
      } else if (block.type === 'redacted_thinking') {
        // This fake never redacts: any redacted block is one it did not issue.
        return {
          error: `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`,
          verified,
        };
      }
    }
  }
  return { verified };
}

/**
 * With thinking on and tool results in the last turn, the assistant turn that made those calls
 * must start with a thinking block (mid-conversation system messages do not count as turns).
 */
export function toolLoopWithoutThinking(messages: unknown[]): string | undefined {
  const turns = [...messages.entries()].filter(([, message]) => asRecord(message)?.role !== 'system');
  const [, last] = turns.at(-1) ?? [];
  if (asRecord(last)?.role !== 'user' || !blocksOf(last).some((block) => block.type === 'tool_result')) {
    return undefined;
  }
  const [index, previous] = turns.at(-2) ?? [];
  if (index === undefined || asRecord(previous)?.role !== 'assistant') return undefined;
  const first = blocksOf(previous)[0];
  if (first?.type === 'thinking' || first?.type === 'redacted_thinking') return undefined;
  return thinkingFirstError(index, String(first?.type));
}

/** Claude's error for an assistant turn (at `index`) of a tool loop that starts with a `found` block. */
export function thinkingFirstError(index: number, found: string): string {
  return `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${THINKING_DOCS}`;
}
