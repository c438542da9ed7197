import type { PriceEntry, PriceTable } from './types';

/**
 * Which price-table entry prices a route's upstream model. The rule, in order:
 *
 * 1. The name itself, exactly (case-insensitive).
 * 2. The name with its host's namespace removed: everything up to the last `/`
 *    (`models/gemini-2.5-pro`, `meta-llama/Llama-3.3-70B-...`), then a Bedrock-style
 *    `[region.]vendor.` prefix (`anthropic.claude-...`, `us.meta.llama3-...`), exactly.
 * 3. A dated or versioned snapshot of an entry: the longest entry E such that the name (either
 *    form above) is E followed by a version suffix — `-` or `@`, then `-`-separated segments
 *    that are all digits, `latest`, or Bedrock's `vN[:M]`. So `gpt-4o-2024-08-06`,
 *    `claude-sonnet-4-20250514`, `claude-sonnet-4@20250514`, `mistral-large-2411`,
 *    `mistral-large-latest` and `claude-3-5-haiku-20241022-v1:0` find their base entry, while
 *    a different model that merely shares a prefix (`o3-pro` vs `o3`, `gpt-4.1-nano` vs
 *    `gpt-4.1`) does not: it stays unpriced, visibly, rather than silently mispriced.
 *    Numeric segments also match minor versions (`claude-opus-4-5` → `claude-opus-4`), which
 *    is why minor versions with their own price have their own entry (the longest wins).
 */
export function findPriceEntry(table: PriceTable, upstreamModel: string): PriceEntry | null {
  if (table.size === 0) return null;
  const names = candidateNames(upstreamModel);
  for (const name of names) {
    const exact = table.get(name);
    if (exact) return exact;
  }
  for (const name of names) {
    const snapshot = longestVersionedBase(table, name);
    if (snapshot) return snapshot;
  }
  return null;
}

const VERSION_SEGMENT = String.raw`(?:\d+|latest|v\d+(?::\d+)?)`;
const VERSION_SUFFIX = new RegExp(`^[-@]${VERSION_SEGMENT}(?:-${VERSION_SEGMENT})*$`);

/** Bedrock model ids and cross-region inference profiles: `anthropic.x`, `us.anthropic.x`. */
const BEDROCK_PREFIX =
  /^(?:(?:us|eu|apac|us-gov|global)\.)?(?:anthropic|meta|mistral|amazon|cohere|ai21|deepseek|openai|writer|qwen)\./;

/** The name as given, then without its namespace, lower-cased and without duplicates. */
export function candidateNames(upstreamModel: string): string[] {
  const full = upstreamModel.trim().toLowerCase();
  const bare = full.slice(full.lastIndexOf('/') + 1).replace(BEDROCK_PREFIX, '');
  return bare === full || bare === '' ? [full] : [full, bare];
}

/** True when `name` is `base` plus a version suffix (see findPriceEntry, rule 3). */
export function isVersionOf(name: string, base: string): boolean {
  return name.length > base.length && name.startsWith(base) && VERSION_SUFFIX.test(name.slice(base.length));
}

function longestVersionedBase(table: PriceTable, name: string): PriceEntry | null {
  let best: { key: string; entry: PriceEntry } | null = null;
  for (const [key, entry] of table) {
    if ((best === null || key.length > best.key.length) && isVersionOf(name, key)) best = { key, entry };
  }
  return best?.entry ?? null;
}
