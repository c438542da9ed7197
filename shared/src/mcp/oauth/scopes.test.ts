import { describe, expect, it } from 'vitest';
import { unionOfScopes } from './scopes';

describe('unionOfScopes', () => {
  it('keeps each scope once, in the order first asked', () => {
    expect(unionOfScopes('mcp:basic', 'mcp:write mcp:basic')).toBe('mcp:basic mcp:write');
    expect(unionOfScopes(null, 'a  b')).toBe('a b');
    expect(unionOfScopes(null, undefined, '')).toBeNull();
  });
});
