import { describe, expect, it } from 'vitest';
import { McpRpcError } from '../jsonrpc';
import { META, statelessEnvelope } from './envelope';

/** `capabilities` null: left out. */
const meta = (version: string | undefined, capabilities: unknown = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/list',
  params: {
    _meta: {
      ...(version !== undefined && { [META.protocolVersion]: version }),
      ...(capabilities !== null && { [META.clientCapabilities]: capabilities }),
    },
  },
});
const plain = { jsonrpc: '2.0', id: 7, method: 'tools/list' };

function refusal(run: () => unknown): { status: number; code: number; data: unknown; id: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof McpRpcError) {
      return { status: error.status, code: error.rpcCode, data: error.rpcData, id: error.rpcId };
    }
    throw error;
  }
  throw new Error('not refused');
}

describe('statelessEnvelope (2026-07-28 requests)', () => {
  it('leaves session-era traffic alone', () => {
    expect(
      statelessEnvelope({ sessionId: 's', protocolVersion: '2026-07-28' }, meta('2026-07-28'), 7),
    ).toBeNull();
    expect(statelessEnvelope({ sessionId: null, protocolVersion: null }, plain, 7)).toBeNull();
    expect(statelessEnvelope({ sessionId: null, protocolVersion: '2025-11-25' }, plain, 7)).toBeNull();
  });

  it('takes a well-formed request, clientInfo optional', () => {
    expect(
      statelessEnvelope(
        { sessionId: null, protocolVersion: '2026-07-28' },
        meta('2026-07-28', { sampling: {} }),
        7,
      ),
    ).toEqual({ version: '2026-07-28', clientCapabilities: { sampling: {} } });
  });

  it('refuses what the revision refuses, with HTTP 400, its codes and the request id', () => {
    const headers = { sessionId: null, protocolVersion: '2026-07-28' };
    expect(
      refusal(() => statelessEnvelope({ sessionId: null, protocolVersion: null }, meta('2026-07-28'), 7)),
    ).toEqual({
      status: 400,
      code: -32020,
      data: undefined,
      id: 7,
    });
    expect(refusal(() => statelessEnvelope(headers, meta(undefined), 7)).code).toBe(-32602);
    expect(refusal(() => statelessEnvelope(headers, meta('2026-07-28', null), 7)).code).toBe(-32602);
    expect(refusal(() => statelessEnvelope(headers, { ...plain, params: { _meta: {} } }, 7)).status).toBe(
      400,
    );
    expect(refusal(() => statelessEnvelope(headers, meta('2099-01-01'), 7)).code).toBe(-32020);
    expect(
      refusal(() =>
        statelessEnvelope({ sessionId: null, protocolVersion: '2099-01-01' }, meta('2099-01-01'), 7),
      ),
    ).toEqual({
      status: 400,
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2099-01-01' },
      id: 7,
    });
  });
});
