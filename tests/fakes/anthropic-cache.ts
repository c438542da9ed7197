/**
 * Anthropic prompt caching on the fake: the request as cache segments (tools, system, then
 * each message's blocks, in that order), `cache_control` breakpoints on them (a top-level
 * `cache_control` marks the last block), and the usage fields the Messages API reports.
 */
import { asArray, asRecord, contentBlocks, contentText, countWords, type JsonObject } from './behaviour';
import type { FakeMemory } from './memory';
import {
  type CacheSegment,
  type CacheTtl,
  type CacheUsage,
  explicitCacheUsage,
  without,
} from './prompt-cache';

const MARKERS: ReadonlySet<string> = new Set(['cache_control']);

/** The shortest prompt each model caches, in tokens (Anthropic's documented minimums). */
function minimumCacheable(model: string): number {
  if (/claude-(?:opus-4-5|haiku-4-5)/.test(model)) return 4096;
  if (/claude-3(?:-5)?-haiku/.test(model)) return 2048;
  return 1024;
}

function ttlOf(block: JsonObject): CacheTtl | undefined {
  const control = asRecord(block.cache_control);
  if (control === undefined) return undefined;
  return control.ttl === '1h' ? '1h' : '5m';
}

/** Words a block adds to the input count (as anthropicConversation counts them). */
function blockWords(block: JsonObject): number {
  if (block.type === 'text') return countWords([contentText([block])]);
  if (block.type === 'tool_result') return countWords([contentText(block.content)]);
  return 0;
}

export function cacheSegments(body: JsonObject): CacheSegment[] {
  const segments: CacheSegment[] = [];
  const add = (section: string, block: JsonObject, words: number): void => {
    segments.push({ content: [section, without(block, MARKERS)], words, breakpoint: ttlOf(block) });
  };
  for (const tool of asArray(body.tools)) add('tool', asRecord(tool) ?? {}, 0);
  for (const block of contentBlocks(body.system)) add('system', block, blockWords(block));
  for (const message of asArray(body.messages)) {
    const record = asRecord(message) ?? {};
    for (const block of contentBlocks(record.content)) add(String(record.role), block, blockWords(block));
  }
  const automatic = asRecord(body.cache_control);
  const last = segments.at(-1);
  if (automatic && last && !last.breakpoint) last.breakpoint = automatic.ttl === '1h' ? '1h' : '5m';
  return segments;
}

export function anthropicCacheUsage(memory: FakeMemory, body: JsonObject, model: string): CacheUsage {
  return explicitCacheUsage(memory, `anthropic\n${model}`, cacheSegments(body), minimumCacheable(model));
}

/** Messages API usage: `input_tokens` is only what was neither read from nor written to the cache. */
export function anthropicUsage(inputTokens: number, cache: CacheUsage, outputTokens: number): JsonObject {
  const written = cache.write5m + cache.write1h;
  return {
    input_tokens: Math.max(0, inputTokens - cache.read - written),
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cache.read,
    cache_creation: { ephemeral_5m_input_tokens: cache.write5m, ephemeral_1h_input_tokens: cache.write1h },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}
