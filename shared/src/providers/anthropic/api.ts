/**
 * Where and as whom to call Anthropic's Messages API.
 */
import type { UpstreamTarget } from '../../canonical/ports';
import { trimTrailingSlashes } from '../common/json';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** The wire version this adapter's request and stream handling is written against. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Base URLs are pasted both as `https://api.anthropic.com` and `…/v1`; accept either. */
export function anthropicMessagesUrl(target: UpstreamTarget): string {
  const base = trimTrailingSlashes(target.baseUrl || ANTHROPIC_DEFAULT_BASE_URL).replace(/\/v1$/, '');
  return `${base}/v1/messages`;
}

/**
 * Has Anthropic report the thinking tokens within output_tokens
 * (`usage.output_tokens_details.thinking_tokens`): what the request log and every client
 * format report as reasoning tokens.
 */
export const THINKING_TOKEN_COUNT_BETA = 'thinking-token-count-2026-05-13';

function thinks(body: Record<string, unknown>): boolean {
  const thinking = body.thinking as { type?: unknown } | undefined;
  return thinking?.type === 'enabled' || thinking?.type === 'adaptive';
}

/** The betas the client named in its `anthropic-beta` header (comma-separated), in its order. */
export function clientBetas(headers: Headers | undefined): string[] {
  return (headers?.get('anthropic-beta') ?? '')
    .split(',')
    .map((beta) => beta.trim())
    .filter(Boolean);
}

/**
 * The client's protocol headers go with it: `anthropic-beta` turns on the features its body
 * uses (context management, effort, …), `anthropic-version` names the wire version it speaks.
 * A body that thinks also asks for its thinking tokens to be counted.
 */
export function anthropicHeaders(
  target: UpstreamTarget,
  body: Record<string, unknown>,
): Record<string, string> {
  const client = target.clientHeaders;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-api-key': target.apiKey,
    'anthropic-version': client?.get('anthropic-version') || ANTHROPIC_VERSION,
  };
  const betas = clientBetas(client);
  if (thinks(body) && !betas.includes(THINKING_TOKEN_COUNT_BETA)) betas.push(THINKING_TOKEN_COUNT_BETA);
  if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
  return headers;
}
