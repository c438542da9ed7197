import { describe, expect, it } from 'vitest';
import type { McpServerRow, McpToolRow } from '../../db/repos/mcp-repo';
import { buildCatalog, scopedCatalog } from './catalog';

const server = (id: string, name: string) => ({ id, name }) as McpServerRow;
const tool = (serverId: string, name: string) =>
  ({ serverId, name, description: name, inputSchema: { type: 'object' } }) as unknown as McpToolRow;

// `off` is registered but inactive: it is not among the servers, so its tools are not either.
const catalog = buildCatalog(
  [server('s1', 'hub'), server('s2', 'mail')],
  [tool('s1', 'create_issue'), tool('s1', 'search_code'), tool('s2', 'send')],
  ['s1', 's2', 's3'],
  [
    { name: 'support', tools: ['mail__send', 'hub__create_issue', 'off__tool', 'later__tool'] },
    { name: 'hub', tools: ['mail__send'] },
  ],
);

describe('virtual servers (/mcp/{name})', () => {
  it('serve exactly their listed tools that exist, under <server>__<tool> names, in catalog order', () => {
    const virtual = scopedCatalog(catalog, 'support');
    expect(virtual?.tools.map((t) => [t.publicName, t.accessName, t.server.name, t.tool.name])).toEqual([
      ['hub__create_issue', 'hub__create_issue', 'hub', 'create_issue'],
      ['mail__send', 'mail__send', 'mail', 'send'],
    ]);
    expect(virtual?.toolByName.get('hub__search_code')).toBeUndefined();
    expect(virtual?.aggregate).toBe(false);
    expect(virtual?.registeredIds).toBe(catalog.registeredIds);
  });

  it('have no servers of their own: no resources, templates or prompts', () => {
    const virtual = scopedCatalog(catalog, 'support');
    expect(virtual?.servers).toEqual([]);
    expect(virtual?.serverByName.size).toBe(0);
    expect(virtual?.promptOwner('hub__anything')).toBeNull();
  });

  it('come after the registered servers by name; an unknown name is null', () => {
    expect(scopedCatalog(catalog, 'hub')?.tools.map((t) => t.publicName)).toEqual([
      'create_issue',
      'search_code',
    ]);
    expect(scopedCatalog(catalog, 'nowhere')).toBeNull();
    expect(scopedCatalog(scopedCatalog(catalog, 'hub') ?? catalog, 'support')).toBeNull();
  });
});
