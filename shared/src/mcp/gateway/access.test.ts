import { describe, expect, it } from 'vitest';
import { mayUseTool } from './access';

describe('MCP tool access by role', () => {
  const access = { user: ['search__*', 'files__read'], viewer: [] };

  it('lets admins and unlisted roles use every tool', () => {
    expect(mayUseTool('admin', 'files__delete', access)).toBe(true);
    expect(mayUseTool('operator', 'files__delete', access)).toBe(true);
  });

  it('limits a listed role to its patterns', () => {
    expect(mayUseTool('user', 'search__web', access)).toBe(true);
    expect(mayUseTool('user', 'files__read', access)).toBe(true);
    expect(mayUseTool('user', 'files__delete', access)).toBe(false);
    expect(mayUseTool('user', 'searchx__web', access)).toBe(false);
    expect(mayUseTool('viewer', 'search__web', access)).toBe(false);
    expect(mayUseTool('service', 'anything__x', { service: ['*'] })).toBe(true);
  });
});
