/**
 * Converse prompt caching on the fake: the request as cache segments (tools, system, then each
 * message's blocks), a `cachePoint` block marking the segment before it as a breakpoint, the
 * accounting Anthropic's models do (prompt-cache.ts: write on first sight of a prefix at least
 * the model's minimum, read it after), and the refusals Bedrock gives checkpoints.
 */

import { isClaude, MODEL_ERRORS } from './bedrock-claude';
import { asArray, asRecord, asString, countWords, type JsonObject } from './behaviour';
import type { FakeMemory } from './memory';
import { type CacheSegment, type CacheUsage, explicitCacheUsage } from './prompt-cache';

const MAX_CACHE_POINTS = 4;
const isNova = (model: string): boolean => /amazon\.nova/i.test(model);

/** The shortest prefix each model caches, in tokens (Bedrock's documented minimums). */
function minimumCacheable(model: string): number {
  if (isNova(model)) return 1000;
  if (/claude-(?:opus-4-5|haiku-4-5)/.test(model)) return 4096;
  if (/claude-3-5-haiku/.test(model)) return 2048;
  return 1024;
}

/** Words a block adds to the input count (as converseConversation counts them). */
function blockWords(block: JsonObject): number {
  const text = asString(block.text);
  if (text !== undefined) return countWords([text]);
  const result = asRecord(block.toolResult);
  if (!result) return 0;
  return countWords(asArray(result.content).flatMap((item) => asString(asRecord(item)?.text) ?? []));
}

interface Checkpoints {
  segments: CacheSegment[];
  /** Every checkpoint's `ttl`, as sent. */
  ttls: string[];
}

function checkpoints(body: JsonObject): Checkpoints {
  const segments: CacheSegment[] = [];
  const ttls: string[] = [];
  const visit = (section: string, value: unknown): void => {
    const block = asRecord(value) ?? {};
    const point = asRecord(block.cachePoint);
    if (!point) {
      segments.push({ content: [section, block], words: section === 'tool' ? 0 : blockWords(block) });
      return;
    }
    const ttl = asString(point.ttl) ?? '5m';
    ttls.push(ttl);
    const marked = segments.at(-1);
    if (marked && (ttl === '5m' || ttl === '1h')) marked.breakpoint = ttl;
  };
  for (const tool of asArray(asRecord(body.toolConfig)?.tools)) visit('tool', tool);
  for (const block of asArray(body.system)) visit('system', block);
  for (const message of asArray(body.messages)) {
    const record = asRecord(message) ?? {};
    for (const block of asArray(record.content)) visit(String(record.role), block);
  }
  return { segments, ttls };
}

/** The ValidationException for checkpoints the model or Bedrock refuses, if any. */
export function cachePointProblem(body: JsonObject, model: string): string | undefined {
  const { ttls } = checkpoints(body);
  if (ttls.length === 0) return undefined;
  if (!isClaude(model) && !isNova(model)) {
    return 'You invoked an unsupported model or your request did not allow prompt caching. See the documentation for more information.';
  }
  const badTtl = ttls.find((ttl) => ttl !== '5m' && ttl !== '1h');
  if (badTtl !== undefined) {
    return `1 validation error detected: Value '${badTtl}' at 'cachePoint.ttl' failed to satisfy constraint: Member must satisfy enum value set: [5m, 1h]`;
  }
  if (ttls.length > MAX_CACHE_POINTS) {
    return `${MODEL_ERRORS}A maximum of ${MAX_CACHE_POINTS} blocks with cache_control may be provided. Found ${ttls.length}.`;
  }
  return undefined;
}

/** Reads and writes for this request (undefined without checkpoints); remembers what it writes. */
export function bedrockCacheUsage(
  memory: FakeMemory,
  body: JsonObject,
  model: string,
): CacheUsage | undefined {
  const { segments, ttls } = checkpoints(body);
  if (ttls.length === 0) return undefined;
  return explicitCacheUsage(memory, `bedrock\n${model}`, segments, minimumCacheable(model));
}

/**
 * Converse usage: `inputTokens` is only what was neither read from nor written to the cache;
 * `cacheDetails` splits the writes by lifetime (one hour first), when there were any.
 */
export function cacheFields(cache: CacheUsage): JsonObject {
  const fields: JsonObject = {
    cacheReadInputTokens: cache.read,
    cacheWriteInputTokens: cache.write5m + cache.write1h,
  };
  const details = [
    { ttl: '1h', inputTokens: cache.write1h },
    { ttl: '5m', inputTokens: cache.write5m },
  ].filter((detail) => detail.inputTokens > 0);
  if (details.length > 0) fields.cacheDetails = details;
  return fields;
}
