import type { BudgetPeriod, LimitWindow } from './periods';

/**
 * Limits on MCP tool calls (docs/mcp.md, Tool limits and budgets). A limit names a tool pattern
 * — `<server>__<tool>`, `<server>__*` (every tool of the server) or `*` (every routed tool
 * call) — and counts every call the pattern matches together: `github__*` at 100 calls an hour
 * is 100 calls to any of github's tools. A `rate` counts calls in a sliding window, a `budget`
 * calls per calendar period; both on the engine's counters (tool-gate.ts).
 */
export type ToolLimitDef =
  | { tool: string; kind: 'rate'; window: LimitWindow; limit: number }
  | { tool: string; kind: 'budget'; period: BudgetPeriod; limit: number };

/** The tool limits a call runs under: the key's own (null for a JWT caller) and the owner's effective ones. */
export interface ToolLimitSets {
  key: ToolLimitDef[] | null;
  user: ToolLimitDef[];
}

export const ANY_TOOL = '*';
export const SERVER_WILDCARD = '__*';
export const TOOL_NAME_SEPARATOR = '__';

/** `*`, `<server>__*` or `<server>__<tool>` (server a lowercase slug, tool without whitespace). */
export const TOOL_PATTERN = /^(\*|[a-z0-9][a-z0-9_-]*__(\*|[^\s]+))$/;

/** A routed tool call, by its server's name and the tool's own name. */
export interface ToolRef {
  server: string;
  tool: string;
}

export const accessNameOf = (ref: ToolRef): string => `${ref.server}${TOOL_NAME_SEPARATOR}${ref.tool}`;

/**
 * Whether a pattern covers a call: `*` any, `<server>__*` every tool of that server (by the
 * server's name, so `a__*` never covers a server named `a_`), else the exact `<server>__<tool>`.
 */
export function toolPatternMatches(pattern: string, ref: ToolRef): boolean {
  if (pattern === ANY_TOOL) return true;
  if (pattern.endsWith(SERVER_WILDCARD)) return pattern.slice(0, -SERVER_WILDCARD.length) === ref.server;
  return pattern === accessNameOf(ref);
}

/** What two limits of one subject must not share: pattern, kind and window (or period). */
export function toolLimitId(def: ToolLimitDef): string {
  return `${def.tool}|${def.kind}|${def.kind === 'rate' ? def.window : def.period}`;
}

/**
 * The owner's effective tool limits: their roles' merged most-restrictive per pattern, kind and
 * window, then the user's own, which replace the role value for the same three (as rules do).
 */
export function effectiveToolLimits(roleTools: ToolLimitDef[], userTools: ToolLimitDef[]): ToolLimitDef[] {
  const merged = new Map<string, ToolLimitDef>();
  for (const def of roleTools) {
    const held = merged.get(toolLimitId(def));
    if (!held || def.limit < held.limit) merged.set(toolLimitId(def), { ...def });
  }
  for (const def of userTools) merged.set(toolLimitId(def), { ...def });
  return [...merged.values()];
}

/** A key's own tool limits: one per pattern, kind and window, the lowest when repeated. */
export function keyToolLimits(keyTools: ToolLimitDef[]): ToolLimitDef[] {
  return effectiveToolLimits(keyTools, []);
}

export function hasToolLimits(sets: ToolLimitSets | undefined): boolean {
  return sets !== undefined && (sets.user.length > 0 || (sets.key?.length ?? 0) > 0);
}
