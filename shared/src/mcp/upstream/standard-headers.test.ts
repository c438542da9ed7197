import { describe, expect, it } from 'vitest';
import { invalidToolHeaders } from '../registry/tool-headers';
import { headerValue, standardHeaders } from './standard-headers';

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
