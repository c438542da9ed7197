import { describe, expect, it } from 'vitest';
import { invalidToolHeaders } from '../registry/tool-headers';
import { headerValue, standardHeaders, withStandardHeaders } from './standard-headers';

describe('standard headers upstream (2026-07-28)', () => {
  it('names the method, and what tools/call, prompts/get and resources/read name', () => {
    expect(standardHeaders({ method: 'tools/call', params: { name: 'my-tool' } })).toEqual({
      'mcp-method': 'tools/call',
      'mcp-name': 'my-tool',
    });
    expect(standardHeaders({ method: 'resources/read', params: { uri: 'file:///a b' } })['mcp-name']).toBe(
      'file:///a b',
    );
    expect(standardHeaders({ method: 'prompts/get', params: { name: ' x' } })['mcp-name']).toBe(
      `=?base64?${btoa(' x')}?=`,
    );
    expect(standardHeaders({ method: 'tools/list' })).toEqual({ 'mcp-method': 'tools/list' });
  });

  it('mirrors the arguments a tool designates into Mcp-Param headers, leaving out null ones', () => {
    const designated = () =>
      [
        ['region', 'Region'],
        ['debug', 'Debug'],
        ['missing', 'Gone'],
        ['note', 'Note'],
      ] as const;
    const message = {
      method: 'tools/call',
      params: { name: 't', arguments: { region: 'us-west1', debug: true, note: null } },
    };
    expect(standardHeaders(message, designated)).toEqual({
      'mcp-method': 'tools/call',
      'mcp-name': 't',
      'mcp-param-region': 'us-west1',
      'mcp-param-debug': 'true',
    });
  });

  it('adds them to a session-era POST, initialize too, leaving its body and version header alone', async () => {
    const seen: Array<{ headers: Headers; body: unknown }> = [];
    const recording = (async (_url: string, init: RequestInit) => {
      seen.push({ headers: new Headers(init.headers), body: init.body });
      return new Response('{}');
    }) as unknown as typeof fetch;
    const headed = withStandardHeaders(recording);
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    await headed('http://x/mcp', { method: 'POST', body: initialize });
    expect(seen[0]?.headers.get('mcp-method')).toBe('initialize');
    expect(seen[0]?.headers.has('mcp-protocol-version')).toBe(false);
    expect(seen[0]?.body).toBe(initialize);
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'my-tool', arguments: {} } };
    await headed('http://x/mcp', {
      method: 'POST',
      headers: { 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(call),
    });
    expect(Object.fromEntries(seen[1]?.headers ?? [])).toEqual({
      'mcp-method': 'tools/call',
      'mcp-name': 'my-tool',
      'mcp-protocol-version': '2025-11-25',
    });
    // A GET (the session's stream) and a batch go out as they came.
    await headed('http://x/mcp', { method: 'GET' });
    await headed('http://x/mcp', { method: 'POST', body: JSON.stringify([call]) });
    expect(seen.slice(2).map((s) => s.headers.has('mcp-method'))).toEqual([false, false]);
  });

  it('encodes values that are not plain printable ASCII', () => {
    expect(headerValue('us-west1')).toBe('us-west1');
    expect(headerValue(' padded')).toBe(`=?base64?${btoa(' padded')}?=`);
    expect(headerValue('世界')).toBe('=?base64?5LiW55WM?=');
  });
});

describe('x-mcp-header designations', () => {
  const tool = (property: Record<string, unknown>) => ({ type: 'object', properties: { p: property } });
  it('keep a tool whose designations are sound, leave out one that is not', () => {
    expect(invalidToolHeaders(tool({ type: 'string', 'x-mcp-header': 'Region' }))).toBeNull();
    expect(invalidToolHeaders({ type: 'object' })).toBeNull();
    expect(invalidToolHeaders(tool({ type: 'array', 'x-mcp-header': 'List' }))).toMatch(/string, integer/);
    expect(invalidToolHeaders(tool({ type: 'number', 'x-mcp-header': 'Score' }))).toMatch(/string, integer/);
    expect(invalidToolHeaders(tool({ type: 'integer', 'x-mcp-header': 'Count' }))).toBeNull();
    expect(invalidToolHeaders(tool({ type: 'string', 'x-mcp-header': '' }))).toMatch(/non-empty/);
    expect(invalidToolHeaders(tool({ type: 'string', 'x-mcp-header': 'a b' }))).toMatch(/not a header name/);
    const twice = {
      type: 'object',
      properties: { a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } },
    };
    expect(invalidToolHeaders(twice)).toMatch(/used twice/);
  });
});
