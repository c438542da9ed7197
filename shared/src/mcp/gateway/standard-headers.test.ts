import { describe, expect, it } from 'vitest';
import { McpRpcError } from './jsonrpc';
import { checkStandardHeaders } from './standard-headers';

const call = { method: 'tools/call', params: { name: 'echo' }, id: 7 };

describe('Mcp-Method and Mcp-Name headers', () => {
  it('pass when they agree with the body, or are absent', () => {
    expect(() =>
      checkStandardHeaders({ 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, call),
    ).not.toThrow();
    expect(() => checkStandardHeaders({}, call)).not.toThrow();
    expect(() => checkStandardHeaders(undefined, call)).not.toThrow();
    const uri = 'file:///a b.txt';
    const read = { method: 'resources/read', params: { uri }, id: 1 };
    expect(() => checkStandardHeaders({ 'mcp-name': `=?base64?${btoa(uri)}?=` }, read)).not.toThrow();
  });

  it('refuse a header that says another method or name, with the request id', () => {
    const wrongMethod = () => checkStandardHeaders({ 'mcp-method': 'tools/list' }, call);
    expect(wrongMethod).toThrow(McpRpcError);
    expect(wrongMethod).toThrow(/does not match the body's method tools\/call/);
    try {
      checkStandardHeaders({ 'mcp-name': 'other' }, call);
    } catch (error) {
      expect(error).toMatchObject({ status: 400, rpcCode: -32020, rpcId: 7 });
    }
    expect(() => checkStandardHeaders({ 'mcp-name': 'other' }, call)).toThrow(/params.name/);
  });
});
