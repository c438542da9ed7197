import type { McpResult } from '../ports';
import type { CatalogTool } from './catalog';
import { RPC, RpcFault } from './jsonrpc';

/**
 * A catalog of hundreds of tools does not fit in a model's context: on /mcp the gateway can
 * offer one tool that finds the others by name and description and returns their definitions,
 * and list only it and a few pinned tools (setting mcp_tool_search). Every tool stays callable
 * by name, listed or not; the search only ever shows tools the caller may use.
 */
export type ToolSearchMode = 'off' | 'on' | 'only';

/** Named like the catalog's `<server>__<tool>`: the server name `sluice` is reserved for it. */
export const SEARCH_TOOL_NAME = 'sluice__search_tools';
export const RESERVED_SERVER_NAME = 'sluice';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;

export const SEARCH_TOOL = {
  name: SEARCH_TOOL_NAME,
  description:
    'Find tools of this gateway by what they do. Give words from the task (for example "create issue" or "send mail"); the answer lists the best-matching tools with their names, descriptions and input schemas, which can then be called by name.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Words describing the tool wanted' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_LIMIT,
        description: `At most this many (default ${DEFAULT_LIMIT})`,
      },
    },
    required: ['query'],
  },
} as const;

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export const listedTool = (t: CatalogTool): ListedTool => ({
  name: t.publicName,
  description: t.tool.description ?? '',
  inputSchema: t.tool.inputSchema,
});

/** What tools/list shows of the tools the caller may use, as the mode says. */
export function toolsToList(
  visible: CatalogTool[],
  mode: ToolSearchMode,
  pinned: readonly string[],
): ListedTool[] {
  if (mode === 'off') return visible.map(listedTool);
  if (mode === 'on') return [SEARCH_TOOL, ...visible.map(listedTool)];
  const keep = new Set(pinned);
  return [SEARCH_TOOL, ...visible.filter((t) => keep.has(t.publicName)).map(listedTool)];
}

const termsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0);

/** Whether one of the words starts with the term ("issue" finds "issues", "repo" "repository"). */
const startsAWord = (words: readonly string[], term: string) => words.some((word) => word.startsWith(term));

/**
 * The tools whose name or description have words starting with the query's words, best first:
 * a word of the name counts three times one of the description; ties go by name, so the same
 * query gives the same answer.
 */
export function searchTools(visible: CatalogTool[], query: string, limit = DEFAULT_LIMIT): CatalogTool[] {
  const terms = [...new Set(termsOf(query))];
  const scored: Array<{ tool: CatalogTool; score: number }> = [];
  for (const tool of visible) {
    const name = termsOf(tool.publicName);
    const description = termsOf(tool.tool.description ?? '');
    let score = 0;
    for (const term of terms)
      score += (startsAWord(name, term) ? 3 : 0) + (startsAWord(description, term) ? 1 : 0);
    if (score > 0) scored.push({ tool, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.tool.publicName < b.tool.publicName ? -1 : 1));
  return scored.slice(0, limit).map((s) => s.tool);
}

/** tools/call of the search tool: the matches as JSON text and as structured content. */
export function callSearchTool(visible: CatalogTool[], args: Record<string, unknown>): McpResult {
  const { query, limit } = args;
  if (typeof query !== 'string' || query.trim() === '')
    throw new RpcFault(RPC.invalidParams, `${SEARCH_TOOL_NAME}: arguments.query must be a non-empty string`);
  if (
    limit !== undefined &&
    (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_LIMIT)
  )
    throw new RpcFault(
      RPC.invalidParams,
      `${SEARCH_TOOL_NAME}: arguments.limit must be an integer 1..${MAX_LIMIT}`,
    );
  const tools = searchTools(visible, query, (limit as number | undefined) ?? DEFAULT_LIMIT).map(listedTool);
  return {
    content: [{ type: 'text', text: JSON.stringify({ tools }) }],
    structuredContent: { tools },
  };
}
