import { describe, expect, it } from 'vitest';
import type { AccessLogRecord, AppLogRecord } from './records';
import { buildServerLogs } from './wiring';

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

describe('buildServerLogs', () => {
  it('flushLogs resolves only once every access record and log line is stored (shutdown)', async () => {
    const stored = { access: [] as AccessLogRecord[], app: [] as AppLogRecord[] };
    // Slow stores: a flush that did not wait would see them still empty.
    const slow = <R>(into: R[]) => ({
      insert: async (records: readonly R[]) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        into.push(...records);
      },
      search: async () => ({ total: 0, entries: [] }),
    });
    const logs = buildServerLogs('console', {}, { access: slow(stored.access), app: slow(stored.app) });
    for (const i of [1, 2, 3]) void logs.recordAccess(access(i));
    logs.logger.child('test').warn('going down', { why: 'SIGTERM' });
    await logs.flushLogs();
    expect(stored.access.map((r) => r.path)).toEqual(['/api/1', '/api/2', '/api/3']);
    expect(stored.app).toEqual([
      expect.objectContaining({ level: 'WARN', target: 'test', message: 'going down' }),
    ]);
  });
});
