/**
 * Who is calling, for the request log and analytics by client: the coding agents and SDKs
 * people point at a gateway, recognised from the User-Agent they send, and the session id the
 * agents put in a header of their own. Anything else is logged under its User-Agent's first
 * product token, so a new client shows up by name rather than as "unknown".
 */
export interface ClientIdentity {
  clientName: string | null;
  clientVersion: string | null;
  userAgent: string | null;
  sessionId: string | null;
}

/** A User-Agent pattern: its first group is the version. */
const KNOWN_CLIENTS: ReadonlyArray<readonly [name: string, pattern: RegExp]> = [
  ['claude-code', /^claude-cli\/(\S+)/i],
  ['codex', /^codex[_-][a-z_]+\/(\S+)/i],
  ['opencode', /^opencode\/(\S+)/i],
  ['openai-sdk', /^OpenAI\/(?:JS|Python|Go|Java|\.NET|Ruby)\s+(\S+)/i],
  ['anthropic-sdk', /^Anthropic\/(?:JS|Python|Go|Java|Ruby)\s+(\S+)/i],
  ['ai-sdk', /\bai-sdk\/\S*?\/?(\d[\w.-]*)/i],
];

/** The agents' own session-id headers, in the order they are looked for. */
export const SESSION_HEADERS = [
  // Claude Code
  'x-claude-code-session-id',
  // Codex (session_id in its older releases)
  'session-id',
  'session_id',
  // opencode, and the ai-sdk clients that follow it
  'x-session-id',
];

const MAX_USER_AGENT = 256;
const MAX_FIELD = 128;

function clip(value: string | null, max: number): string | null {
  return value === null ? null : value.slice(0, max);
}

type Recognised = Readonly<{ name: string; version: string | null }>;

/**
 * What each User-Agent came to: a gateway's callers send a handful of them, each on every
 * request. Bounded (the oldest goes), and only for User-Agents of a usual length.
 */
const recognised = new Map<string, Recognised>();
const MAX_RECOGNISED = 128;
const MAX_REMEMBERED_USER_AGENT = 512;

function recogniseOnce(userAgent: string): Recognised {
  const seen = recognised.get(userAgent);
  if (seen) return seen;
  const known = recognise(userAgent);
  if (userAgent.length <= MAX_REMEMBERED_USER_AGENT) {
    if (recognised.size >= MAX_RECOGNISED) recognised.delete(recognised.keys().next().value as string);
    recognised.set(userAgent, known);
  }
  return known;
}

function recognise(userAgent: string): Recognised {
  for (const [name, pattern] of KNOWN_CLIENTS) {
    const match = pattern.exec(userAgent);
    if (match) return { name, version: match[1] ?? null };
  }
  // RFC 9110's product token: name[/version].
  const [product = ''] = userAgent.trim().split(/\s+/);
  const slash = product.indexOf('/');
  return slash < 0
    ? { name: product.toLowerCase(), version: null }
    : { name: product.slice(0, slash).toLowerCase(), version: product.slice(slash + 1) || null };
}

export function clientIdentity(headers: Pick<Headers, 'get'>): ClientIdentity {
  const userAgent = headers.get('user-agent');
  let sessionId: string | null = null;
  for (const name of SESSION_HEADERS) {
    sessionId = headers.get(name);
    if (sessionId) break;
  }
  const known = userAgent ? recogniseOnce(userAgent) : null;
  return {
    clientName: clip(known?.name || null, MAX_FIELD),
    clientVersion: clip(known?.version ?? null, MAX_FIELD),
    userAgent: clip(userAgent, MAX_USER_AGENT),
    sessionId: clip(sessionId || null, MAX_FIELD),
  };
}

export const NO_CLIENT: ClientIdentity = {
  clientName: null,
  clientVersion: null,
  userAgent: null,
  sessionId: null,
};
