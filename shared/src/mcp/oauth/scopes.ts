/**
 * Scopes asked of an upstream accumulate (SEP-2350): a re-authorization after a step-up
 * challenge asks for what was asked before and what the challenge named, so the new token does
 * not lose what the old one could do. Space-separated, each once, in the order first seen.
 */
export function unionOfScopes(...scopes: ReadonlyArray<string | null | undefined>): string | null {
  const all = new Set(scopes.flatMap((scope) => (scope ?? '').split(' ').filter((s) => s !== '')));
  return all.size === 0 ? null : [...all].join(' ');
}
