/** Prefixes the public formats use; stripped before re-prefixing so ids stay short and readable. */
const KNOWN_PREFIX = /^(chatcmpl-|msg_|resp_|call_|toolu_|fc_)/;

/** 32 hex characters, from the platform's UUID generator. */
export function randomIdCore(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/** The id without any known format prefix. */
export function idCore(source: string): string {
  return source.replace(KNOWN_PREFIX, '');
}

/**
 * An id in the target format's style, derived from an upstream or canonical id so the same
 * source always gives the same id (tool call ids must survive the client's next turn).
 * Characters outside [A-Za-z0-9_-] are replaced because some vendors reject them in tool ids.
 */
export function formatId(prefix: string, source?: string): string {
  if (source?.startsWith(prefix) && /^[A-Za-z0-9_-]+$/.test(source)) return source;
  const core = idCore(source ?? '').replace(/[^A-Za-z0-9_-]/g, '_');
  return prefix + (core === '' ? randomIdCore() : core);
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
