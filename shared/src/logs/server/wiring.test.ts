import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessLogRecord, AppLogRecord } from './records';
import { buildServerLogs, listeningPort } from './wiring';

const access = (i: number): AccessLogRecord => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
  port: 3001,
  method: 'GET',
  path: `/api/${i}`,
  statusCode: 200,
  userId: null,
  latencyMs: i,
  ip: null,
  userAgent: null,
});

/** How long a store takes to insert, on the fake clock below. */
const INSERT_MS = 50;

// Slow stores: a flush that did not wait would see them still empty.
const slow = <R>(into: R[]) => ({
  insert: async (records: readonly R[]) => {
    await new Promise((resolve) => setTimeout(resolve, INSERT_MS));
    into.push(...records);
  },
  search: async () => ({ total: 0, entries: [] }),
});

/**
 * flushLogs, with the batch windows (seconds) and the stores' inserts on fake timers, run one
 * by one until it resolves: what the test then finds stored was there when it resolved, and
 * the test does not wait for them for real.
 */
async function flushed(...logs: Array<{ flushLogs(): Promise<void> }>): Promise<void> {
  let settled = false;
  const flushing = Promise.all(logs.map((l) => l.flushLogs())).then(() => {
    settled = true;
  });
  for (let i = 0; i < 100 && !settled; i++) await vi.advanceTimersToNextTimerAsync();
  await flushing;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('buildServerLogs', () => {
  it('flushLogs resolves only once every access record and log line is stored (shutdown)', async () => {
    const stored = { access: [] as AccessLogRecord[], app: [] as AppLogRecord[] };
    const logs = buildServerLogs('console', {}, { access: slow(stored.access), app: slow(stored.app) });
    for (const i of [1, 2, 3]) void logs.recordAccess(access(i));
    logs.logger.child('test').warn('going down', { why: 'SIGTERM' });
    await flushed(logs);
    expect(stored.access.map((r) => r.path)).toEqual(['/api/1', '/api/2', '/api/3']);
    expect(stored.app).toEqual([
      expect.objectContaining({ level: 'INFO', target: 'server', message: 'console started' }),
      expect.objectContaining({ level: 'WARN', target: 'test', message: 'going down' }),
    ]);
  });

  it('stores the line each server starts with, so the app log of a healthy stack is not empty', async () => {
    const stored = { access: [] as AccessLogRecord[], app: [] as AppLogRecord[] };
    const logs = buildServerLogs(
      'gateway',
      { SLUICE_GATEWAY_PORT: '9400', SLUICE_LOG_LEVEL: 'warn' },
      { access: slow(stored.access), app: slow(stored.app) },
    );
    await flushed(logs);
    // Below the minimum level (WARN here): neither stored nor printed, as any INFO line.
    expect(stored.app).toEqual([]);
    const atInfo = buildServerLogs('gateway', { SLUICE_GATEWAY_PORT: '9400' }, slowStores(stored));
    await flushed(atInfo);
    expect(stored.app).toEqual([
      expect.objectContaining({
        level: 'INFO',
        source: 'gateway',
        target: 'server',
        message: 'gateway isolate started',
        fields: { port: 9400, log_level: 'INFO' },
      }),
    ]);
  });

  it('stamps every access record with its server and the port it listens on, whatever the caller said', async () => {
    const stored = { access: [] as AccessLogRecord[], app: [] as AppLogRecord[] };
    const gateway = buildServerLogs('gateway', { SLUICE_GATEWAY_PORT: '9400' }, slowStores(stored));
    const consoleLogs = buildServerLogs('console', { SLUICE_CONSOLE_PORT: '9401' }, slowStores(stored));
    // The gateway's middleware still says 3000, the nominal port: the listening one wins.
    void gateway.recordAccess({ ...access(1), port: 3000 });
    void consoleLogs.recordAccess(access(2));
    await flushed(gateway, consoleLogs);
    expect(stored.access.map((r) => [r.path, r.source, r.port])).toEqual([
      ['/api/1', 'gateway', 9400],
      ['/api/2', 'console', 9401],
    ]);
    expect([gateway.port, consoleLogs.port]).toEqual([9400, 9401]);
  });
});

function slowStores(stored: { access: AccessLogRecord[]; app: AppLogRecord[] }) {
  return { access: slow(stored.access), app: slow(stored.app) };
}

describe('listeningPort', () => {
  it('is SLUICE_GATEWAY_PORT / SLUICE_CONSOLE_PORT, else 3000 / 3001; a non-port is a configuration error', () => {
    expect(listeningPort('gateway', {})).toBe(3000);
    expect(listeningPort('console', { SLUICE_GATEWAY_PORT: '9400' })).toBe(3001);
    expect(listeningPort('gateway', { SLUICE_GATEWAY_PORT: '9400' })).toBe(9400);
    expect(listeningPort('console', { SLUICE_CONSOLE_PORT: '' })).toBe(3001);
    for (const bad of ['0', '65536', 'x', '80.5']) {
      expect(() => listeningPort('console', { SLUICE_CONSOLE_PORT: bad }), bad).toThrow(
        /SLUICE_CONSOLE_PORT/,
      );
    }
  });
});
