import type { AccessLogRecord } from '@sluice/shared/logs/server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { ConsoleDeps, ConsoleEnv } from '../types';
import { recordAccessLog } from './access-log';
import { requestMeta } from './request-meta';

const USER = '7b000000-0000-4000-8000-000000000002';

function app() {
  const records: AccessLogRecord[] = [];
  const deps = {
    recordAccess: async (record: AccessLogRecord) => {
      records.push(record);
    },
  } as unknown as ConsoleDeps;
  const a = new Hono<ConsoleEnv>();
  a.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  a.use('*', requestMeta({ trustProxy: true }));
  a.use('*', recordAccessLog());
  a.get('/api/auth/me', (c) => {
    c.set('auth', { userId: USER, email: 'u@example.com', role: 'user' });
    return c.json({ id: USER });
  });
  return { a, records };
}

describe('recordAccessLog (console)', () => {
  it('records port 3001, the JWT user, and the client IP and agent as requestMeta saw them', async () => {
    const { a, records } = app();
    await a.request('/api/auth/me?token=x', {
      headers: { 'x-forwarded-for': '203.0.113.4, 10.0.0.1', 'user-agent': 'ui' },
    });
    await a.request('/api/missing', { method: 'DELETE' });
    expect(records.map((r) => [r.port, r.method, r.path, r.statusCode, r.userId, r.ip, r.userAgent])).toEqual(
      [
        [3001, 'GET', '/api/auth/me', 200, USER, '203.0.113.4', 'ui'],
        [3001, 'DELETE', '/api/missing', 404, null, null, null],
      ],
    );
  });
});
