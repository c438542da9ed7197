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

export function anthropicHeaders(target: UpstreamTarget): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-api-key': target.apiKey,
    'anthropic-version': ANTHROPIC_VERSION,
  };
}
