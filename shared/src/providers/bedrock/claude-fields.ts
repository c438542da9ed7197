/**
 * Claude's own request fields, which Converse takes in `additionalModelRequestFields`:
 * `thinking` (extended thinking, its budget from canonical/reasoning.ts) and `anthropic_beta`
 * (Bedrock takes betas in the body, not as a header). Other model families get neither: each
 * refuses keys it does not know.
 */
import { clientBetas } from '../anthropic/api';

/**
 * The betas passed on from the client's `anthropic-beta` header. Bedrock refuses a whole request
 * naming any beta it does not serve ("invalid beta flag"), and Anthropic clients send several it
 * does not (Claude Code: `claude-code-…`, `oauth-…`, `prompt-caching-scope-…`, `fine-grained-
 * tool-streaming-…`), so only these go: the betas Bedrock documents for Claude that act on a
 * Converse request as this adapter builds it. Betas that enable body fields Converse never
 * carries here (`context_management`, `output_config.effort`, tool search, computer use, …)
 * would do nothing but risk that refusal.
 */
export const BEDROCK_CLAUDE_BETAS: ReadonlySet<string> = new Set([
  'interleaved-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'output-128k-2025-02-19',
  'token-efficient-tools-2025-02-19',
  'dev-full-thinking-2025-05-14',
]);

/** The client's betas that Bedrock serves, each once, in the client's order. */
export function bedrockBetas(headers: Headers | undefined): string[] {
  return [...new Set(clientBetas(headers).filter((beta) => BEDROCK_CLAUDE_BETAS.has(beta)))];
}
