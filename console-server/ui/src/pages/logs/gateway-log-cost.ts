import type { Schemas } from '../../api/types';

type Entry = Pick<
  Schemas['GatewayLogEntry'],
  'cost_usd' | 'unpriced' | 'cache_hit' | 'status_code' | 'total_tokens' | 'client_aborted' | 'endpoint'
>;

/** Why a request cost nothing, as the gateway logs it (shared/src/proxy/accounting.ts). */
export type ZeroCostReason =
  | 'cache hit'
  | 'failed before any tokens'
  | 'aborted before any tokens'
  | 'unpriced model'
  | 'token counting'
  | 'priced at $0'
  | 'no tokens';

/**
 * Why a row's cost is $0 (or unknown), from its own fields; undefined when it cost something.
 * A cache hit spent nothing upstream whatever its tokens; a request without tokens cost nothing
 * whatever its price; an unpriced model's cost is unknown (null), never a silent 0.
 */
export function zeroCostReason(entry: Entry): ZeroCostReason | undefined {
  if (entry.cost_usd !== null && entry.cost_usd > 0) return undefined;
  if (entry.cache_hit) return 'cache hit';
  if (entry.total_tokens === 0 && entry.status_code >= 400) return 'failed before any tokens';
  if (entry.total_tokens === 0 && entry.client_aborted) return 'aborted before any tokens';
  if (entry.unpriced || entry.cost_usd === null) return 'unpriced model';
  if (entry.endpoint === '/v1/messages/count_tokens') return 'token counting';
  return entry.total_tokens > 0 ? 'priced at $0' : 'no tokens';
}
