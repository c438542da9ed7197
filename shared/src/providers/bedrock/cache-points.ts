/**
 * Canonical cache marks → Converse `cachePoint` blocks, each placed right after the block,
 * system block or tool it marks. Converse takes at most four a request, as Anthropic does.
 */
import { MAX_BREAKPOINTS } from '../../canonical/cache-breakpoints';
import type { CacheMark } from '../../canonical/types';
import type { BedrockCachePoint, BedrockConverseRequest } from './types';

/** Where the model takes checkpoints at all; absent (null) when it takes none. */
export interface CachePointOptions {
  /** The model takes the one-hour lifetime; otherwise a 1h mark gets the default five minutes. */
  hourLong: boolean;
}

/** Five minutes is Converse's default, so only a one-hour mark names its lifetime. */
export function cachePoint(mark: CacheMark, options: CachePointOptions): BedrockCachePoint {
  return mark.ttl === '1h' && options.hourLong
    ? { cachePoint: { type: 'default', ttl: '1h' } }
    : { cachePoint: { type: 'default' } };
}

export function isCachePoint(block: object): block is BedrockCachePoint {
  return 'cachePoint' in block;
}

/**
 * Keeps the last four checkpoints (in prompt order: tools, system, messages) and drops the
 * earlier ones: the later a checkpoint, the longer the prefix it caches, and the cache finds
 * the earlier prefixes from it (a look-back of about 20 blocks).
 */
export function limitCachePoints(body: BedrockConverseRequest): void {
  const lists: object[][] = [
    body.toolConfig?.tools ?? [],
    body.system ?? [],
    ...body.messages.map((message) => message.content),
  ];
  const points = lists.flatMap((list) => list.filter(isCachePoint));
  if (points.length <= MAX_BREAKPOINTS) return;
  const dropped = new Set<object>(points.slice(0, points.length - MAX_BREAKPOINTS));
  const keep = <T extends object>(list: T[]): T[] => list.filter((block) => !dropped.has(block));
  if (body.toolConfig) body.toolConfig.tools = keep(body.toolConfig.tools);
  if (body.system) body.system = keep(body.system);
  for (const message of body.messages) message.content = keep(message.content);
}
