/**
 * Prompt caching as the vendors account for it, over the fake's tokens (words, counted as
 * behaviour.ts counts input). A prompt is a list of segments in the vendor's cache order
 * (Anthropic: tools, system, messages; OpenAI: instructions, then input items), each hashed
 * into the running prefix digest.
 *
 * - Anthropic (explicit): a `cache_control` breakpoint caches the prefix up to it, once that
 *   prefix is at least the model's minimum. The first request with a prefix writes it; a later
 *   one reads the longest cached prefix found at a breakpoint or up to 20 blocks before one,
 *   writes what lies between that and its last breakpoint, and pays full price for the rest.
 *   Entries lapse after their lifetime (5 minutes or 1 hour), and each read renews them.
 * - OpenAI (automatic): any prefix of at least 1024 tokens is cached; a later request with the
 *   same prefix (and the same `prompt_cache_key`) reads the longest one, in 128-token steps.
 *   OpenAI bills no writes.
 */
import { createHash } from 'node:crypto';
import { stableJson } from '../../shared/src/proxy/response-cache';
import type { FakeMemory } from './memory';

export type CacheTtl = '5m' | '1h';

export interface CacheSegment {
  /** What the vendor's tokenizer sees of it (no ids, no cache markers): hashed into the prefix. */
  content: unknown;
  /** Input tokens it adds. */
  words: number;
  /** An explicit breakpoint after it, with its lifetime. */
  breakpoint?: CacheTtl;
}

export interface CacheUsage {
  read: number;
  /** Written with a five-minute lifetime… */
  write5m: number;
  /** …and with a one-hour one. */
  write1h: number;
}

export const NO_CACHE: CacheUsage = { read: 0, write5m: 0, write1h: 0 };

const TTL_MS: Readonly<Record<CacheTtl, number>> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };
/** How far before a breakpoint Anthropic looks for an earlier cached prefix. */
const LOOKBACK_BLOCKS = 20;
/** OpenAI caches prompts from this many tokens, and reads in steps of OPENAI_STEP beyond it. */
const OPENAI_MINIMUM = 1024;
const OPENAI_STEP = 128;
const OPENAI_TTL_MS = 10 * 60_000;

/** The value without the named keys, at any depth. */
export function without(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => without(item, keys));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (!keys.has(k)) out[k] = without(v, keys);
  }
  return out;
}

interface Prefixes {
  digests: string[];
  /** Words up to and including each segment. */
  words: number[];
}

function prefixes(scope: string, segments: readonly CacheSegment[]): Prefixes {
  const digests: string[] = [];
  const words: number[] = [];
  let digest = createHash('sha256').update(scope).digest('hex');
  let total = 0;
  for (const segment of segments) {
    digest = createHash('sha256').update(digest).update(stableJson(segment.content)).digest('hex');
    total += segment.words;
    digests.push(digest);
    words.push(total);
  }
  return { digests, words };
}

function live(memory: FakeMemory, digest: string | undefined, now: number): boolean {
  const entry = digest === undefined ? undefined : memory.promptCache.get(digest);
  return entry !== undefined && entry.expiresAt > now;
}

/** Anthropic's accounting for one request (see the file comment); remembers what it writes. */
export function explicitCacheUsage(
  memory: FakeMemory,
  scope: string,
  segments: readonly CacheSegment[],
  minimumWords: number,
): CacheUsage {
  const breakpoints = segments.flatMap((segment, i) => (segment.breakpoint ? [i] : []));
  const last = breakpoints.at(-1);
  if (last === undefined) return NO_CACHE;
  const { digests, words } = prefixes(scope, segments);
  const now = Date.now();
  let readAt = -1;
  for (const point of breakpoints) {
    for (let k = point; k >= Math.max(0, point - LOOKBACK_BLOCKS + 1); k -= 1) {
      if (k > readAt && live(memory, digests[k], now)) readAt = k;
    }
  }
  const readEntry = readAt >= 0 ? memory.promptCache.get(digests[readAt] ?? '') : undefined;
  if (readEntry) readEntry.expiresAt = now + readEntry.ttlMs;
  const read = readAt >= 0 ? (words[readAt] ?? 0) : 0;
  let lastHour = -1;
  for (const point of breakpoints) {
    const ttl = segments[point]?.breakpoint ?? '5m';
    if (point <= readAt || (words[point] ?? 0) < minimumWords) continue;
    memory.promptCache.set(digests[point] ?? '', { expiresAt: now + TTL_MS[ttl], ttlMs: TTL_MS[ttl] });
    if (ttl === '1h') lastHour = point;
  }
  if (last <= readAt || (words[last] ?? 0) < minimumWords) return { read, write5m: 0, write1h: 0 };
  const written = (words[last] ?? 0) - read;
  const write1h = lastHour >= 0 ? (words[lastHour] ?? 0) - read : 0;
  return { read, write5m: written - write1h, write1h };
}

/** OpenAI's automatic accounting: the cached tokens read; remembers this prompt's prefixes. */
export function automaticCacheRead(
  memory: FakeMemory,
  scope: string,
  segments: readonly CacheSegment[],
): number {
  const { digests, words } = prefixes(scope, segments);
  const now = Date.now();
  let longest = 0;
  for (const [i, digest] of digests.entries()) {
    if (live(memory, digest, now)) longest = Math.max(longest, words[i] ?? 0);
  }
  for (const [i, digest] of digests.entries()) {
    if ((words[i] ?? 0) >= OPENAI_MINIMUM) {
      memory.promptCache.set(digest, { expiresAt: now + OPENAI_TTL_MS, ttlMs: OPENAI_TTL_MS });
    }
  }
  if (longest < OPENAI_MINIMUM) return 0;
  return OPENAI_MINIMUM + Math.floor((longest - OPENAI_MINIMUM) / OPENAI_STEP) * OPENAI_STEP;
}
