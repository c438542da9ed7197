/**
 * How the MCP call log words the calls refused before they reached a server: blocked by a tool
 * rule, or over a tool limit. The tool gate runs last and counts only what it lets through, so
 * when the tool counters are rebuilt from the log (limits/tool-counter-rebuild.ts) these rows
 * are left out by their text.
 */
export const BLOCKED_CALL_PREFIX = 'Tool call blocked by rule ';
export const LIMITED_CALL_PREFIX = 'Rate limited: ';

export const blockedCallMessage = (rule: string): string => `${BLOCKED_CALL_PREFIX}"${rule}"`;

/** The log's error prefixes of calls no tool limit counted. */
export const UNCOUNTED_CALL_PREFIXES = [BLOCKED_CALL_PREFIX, LIMITED_CALL_PREFIX] as const;
