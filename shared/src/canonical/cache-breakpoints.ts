import type { CanonicalMessage, CanonicalRequest, ContentPart, ToolDefinition } from './types';

/** Anthropic takes at most four breakpoints a request. */
export const MAX_BREAKPOINTS = 4;

/** Parts a breakpoint may follow: reasoning and the client's unknown blocks cannot carry one. */
function cacheable(part: ContentPart): boolean {
  return part.type !== 'reasoning' && part.type !== 'vendor';
}

export function hasCacheMarks(request: CanonicalRequest): boolean {
  if (request.system.some((part) => part.cache)) return true;
  if (request.tools?.some((tool) => tool.cache)) return true;
  return request.messages.some((message) => message.content.some((part) => 'cache' in part && part.cache));
}

function markLast<T extends object>(items: T[], usable: (item: T) => boolean): T[] {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as T;
    if (!usable(item)) continue;
    const copy = [...items];
    copy[i] = { ...item, cache: {} };
    return copy;
  }
  return items;
}

function markMessage(messages: CanonicalMessage[], at: number): void {
  const message = messages[at];
  if (message) messages[at] = { ...message, content: markLast(message.content, cacheable) };
}

/**
 * Breakpoints for a client that placed none (a Chat Completions or Responses client on a route
 * whose vendor caches only where told): after the tools, after the system prompt, after the
 * last turn (written now, read by the next request) and after the user turn before it (what the
 * previous request wrote, found even when this turn added more than the vendor's look-back of
 * 20 blocks). A request that carries marks of its own is left as it is.
 */
export function withCacheBreakpoints(request: CanonicalRequest): CanonicalRequest {
  if (hasCacheMarks(request)) return request;
  const messages = [...request.messages];
  const last = messages.length - 1;
  markMessage(messages, last);
  let previousUser = -1;
  for (let i = last - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      previousUser = i;
      break;
    }
  }
  if (previousUser >= 0) markMessage(messages, previousUser);
  const out: CanonicalRequest = { ...request, messages, system: markLast(request.system, () => true) };
  if (request.tools) out.tools = markLast<ToolDefinition>(request.tools, () => true);
  return out;
}
