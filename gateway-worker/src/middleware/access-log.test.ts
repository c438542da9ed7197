import type { AccessLogRecord } from '@sluice/shared/logs/server';
import type { Background } from '@sluice/shared/util';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { GatewayDeps, GatewayEnv } from '../types';
import { recordAccessLog } from './access-log';

const USER = '7a000000-0000-4000-8000-000000000001';

/** The middleware alone, with deps that only record what it hands over. */
function app() {
  const records: AccessLogRecord[] = [];
  const flushed: string[] = [];
  const deps = {
    // Opens a batch each time: the batch goes to the request's waitUntil, then the logger flushes.
    recordAccess: async (record: AccessLogRecord, keepAlive?: Background) => {
      records.push(record);
      keepAlive?.(Promise.resolve());
    },
    logger: { flush: async () => void flushed.push('flush') },
  } as unknown as GatewayDeps;
  const a = new Hono<GatewayEnv>();
  a.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  a.use('*', recordAccessLog());
  a.get('/v1/models', (c) => {
    c.set('principal', { kind: 'user', userId: USER, role: 'user' });
    return c.json({ data: [] });
  });
  a.get('/boom', () => {
    throw new Error('boom');
  });
  a.onError((_error, c) => c.json({ error: 'x' }, 500));
  return { a, records, flushed };
}

describe('recordAccessLog (gateway)', () => {
  it('records method, path without query, status, user, port 3000, ip and agent, then flushes the logger', async () => {
    const { a, records, flushed } = app();
    const res = await a.request('/v1/models?secret=1&x=%20', {
      headers: { 'user-agent': 'ua/1', 'cf-connecting-ip': '192.0.2.5' },
    });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      port: 3000,
      method: 'GET',
      path: '/v1/models',
      statusCode: 200,
      userId: USER,
      ip: '192.0.2.5',
      userAgent: 'ua/1',
    });
    expect(records[0]?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(records[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(flushed).toEqual(['flush']);
  });

  it('records unauthenticated, failing and unknown requests with no user, the path percent-encoded', async () => {
    const { a, records } = app();
    expect((await a.request('/boom')).status).toBe(500);
    expect((await a.request('/nope/%00/é', { method: 'POST' })).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(records.map((r) => [r.method, r.path, r.statusCode, r.userId, r.ip, r.userAgent])).toEqual([
      ['GET', '/boom', 500, null, null, null],
      ['POST', '/nope/%00/%C3%A9', 404, null, null, null],
    ]);
  });
});
