import { describe, expect, it } from 'vitest';
import type { McpServerRow, McpToolRow } from '../../db/repos/mcp-repo';
import { buildCatalog } from './catalog';
import { callSearchTool, SEARCH_TOOL_NAME, searchTools, toolsToList } from './tool-search';

const server = (id: string, name: string) => ({ id, name }) as McpServerRow;
const tool = (serverId: string, name: string, description: string) =>
  ({ serverId, name, description, inputSchema: { type: 'object', properties: {} } }) as unknown as McpToolRow;

const catalog = buildCatalog(
  [server('s1', 'hub'), server('s2', 'mail')],
  [
    tool('s1', 'create_issue', 'Open a new issue in a repository'),
    tool('s1', 'list_issues', 'List the issues of a repository'),
    tool('s1', 'search_code', 'Search code across repositories'),
    tool('s2', 'send', 'Send an e-mail message'),
  ],
  ['s1', 's2'],
);

describe('the tool search on /mcp', () => {
  it('ranks name matches above description matches, ties by name', () => {
    expect(searchTools(catalog.tools, 'issue').map((t) => t.publicName)).toEqual([
      'hub__create_issue',
      'hub__list_issues',
    ]);
    expect(searchTools(catalog.tools, 'Send mail').map((t) => t.publicName)).toEqual(['mail__send']);
    expect(searchTools(catalog.tools, 'repository', 1).map((t) => t.publicName)).toEqual([
      'hub__create_issue',
    ]);
    expect(searchTools(catalog.tools, 'nothing-like-it')).toEqual([]);
  });

  it('lists every tool (off), the search beside them (on), or the search and the pinned ones (only)', () => {
    expect(toolsToList(catalog.tools, 'off', []).map((t) => t.name)).not.toContain(SEARCH_TOOL_NAME);
    expect(toolsToList(catalog.tools, 'on', []).map((t) => t.name)).toHaveLength(5);
    expect(toolsToList(catalog.tools, 'only', ['mail__send', 'gone__tool']).map((t) => t.name)).toEqual([
      SEARCH_TOOL_NAME,
      'mail__send',
    ]);
  });

  it('answers the definitions found, as text and structured content; bad arguments are invalid params', () => {
    const result = callSearchTool(catalog.tools, { query: 'code', limit: 5 });
    expect(result.structuredContent).toEqual({
      tools: [
        {
          name: 'hub__search_code',
          description: 'Search code across repositories',
          inputSchema: { type: 'object', properties: {} },
        },
      ],
    });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '')).toEqual(
      result.structuredContent,
    );
    expect(() => callSearchTool(catalog.tools, { query: ' ' })).toThrow(/query must be a non-empty string/);
    expect(() => callSearchTool(catalog.tools, { query: 'x', limit: 0 })).toThrow(/limit must be an integer/);
  });
});
