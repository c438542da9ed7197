/**
 * The most output tokens known vendor models produce, as their vendors document it: what a
 * route sends as the cap when the client set none and the vendor requires one (Anthropic's
 * `max_tokens`; Bedrock's Claude), instead of a small fixed number that cuts agent turns short.
 * A model's own `max_output_tokens` setting wins (routing/resolve.ts). Matched anywhere in the
 * upstream id, so Bedrock ids (`us.anthropic.claude-sonnet-4-5-20250929-v1:0`) and dated
 * snapshots find their family; the first match wins, so specific entries come first.
 */
const KNOWN_OUTPUT_CAPS: ReadonlyArray<readonly [RegExp, number]> = [
  [/claude-opus-4-(?:0|1)\b|claude-opus-4(?:-\d{8})?(?!-\d)/, 32_000],
  [/claude-(?:opus|sonnet|haiku)-[4-9]/, 64_000],
  [/claude-3-7-sonnet/, 64_000],
  [/claude-3-5-(?:sonnet|haiku)/, 8_192],
  [/claude-3-(?:opus|sonnet|haiku)/, 4_096],
  [/gpt-5/, 128_000],
  [/\bo[134](?:-mini|-pro)?\b/, 100_000],
  [/gpt-4\.1/, 32_768],
  [/gpt-4o/, 16_384],
  [/gemini-(?:2\.5|3)/, 65_536],
];

/**
 * What each upstream id came to (null: no known cap), so a route's calls do not test the
 * patterns on every request. Bounded: a deployment names far fewer models; past that, the
 * oldest entry goes.
 */
const capsSeen = new Map<string, number | null>();
const MAX_CAPS_SEEN = 256;

export function knownMaxOutputTokens(upstreamModel: string): number | undefined {
  const seen = capsSeen.get(upstreamModel);
  if (seen !== undefined) return seen ?? undefined;
  const cap = matchCap(upstreamModel.toLowerCase());
  if (capsSeen.size >= MAX_CAPS_SEEN) capsSeen.delete(capsSeen.keys().next().value as string);
  capsSeen.set(upstreamModel, cap ?? null);
  return cap;
}

function matchCap(id: string): number | undefined {
  for (const [pattern, cap] of KNOWN_OUTPUT_CAPS) if (pattern.test(id)) return cap;
  return undefined;
}
