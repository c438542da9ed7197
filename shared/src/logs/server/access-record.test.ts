import { describe, expect, it, vi } from 'vitest';
import { pathAsSent, startAccessRecord } from './access-record';

const SEEN = {
  port: 3000,
  method: 'GET',
  url: 'http://gateway.test/v1/models?secret=1',
  statusCode: 200,
  userId: null,
  ip: undefined,
  userAgent: undefined,
};

describe('pathAsSent', () => {
  it('is the pathname of a normalised URL, without query or fragment', () => {
    for (const url of [
      'http://gateway.test/v1/models?secret=1&x=%20',
      'http://gateway.test/nope/%00/%C3%A9#part',
      'https://user:pw@[::1]:3001//double/slash?',
      'http://gateway.test/',
    ]) {
      expect(pathAsSent(url)).toBe(new URL(url).pathname);
    }
  });
});

describe('startAccessRecord', () => {
  it('finishes the record with the time to the response and what the server saw', () => {
    // Both clocks it reads (the wall clock for the time, the monotonic one for the latency), faked.
    vi.useFakeTimers({ toFake: ['Date', 'performance'], now: new Date('2026-01-01T00:00:00.000Z') });
    let record: ReturnType<ReturnType<typeof startAccessRecord>>;
    try {
      const finish = startAccessRecord();
      vi.advanceTimersByTime(5);
      record = finish({ ...SEEN, userId: 'u1', ip: '192.0.2.5', userAgent: 'ua/1' });
    } finally {
      vi.useRealTimers();
    }
    expect(record).toMatchObject({
      port: 3000,
      method: 'GET',
      path: '/v1/models',
      statusCode: 200,
      userId: 'u1',
      ip: '192.0.2.5',
      userAgent: 'ua/1',
    });
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.latencyMs).toBe(5);
    expect(record.createdAt).toEqual(new Date('2026-01-01T00:00:00.000Z'));
  });

  it('cuts what a client sends to a small row, and records what it did not send as null', () => {
    const record = startAccessRecord()({
      ...SEEN,
      url: `http://gateway.test/${'p'.repeat(3000)}`,
      ip: 'i'.repeat(100),
      userAgent: 'a'.repeat(600),
    });
    expect([record.path.length, record.ip?.length, record.userAgent?.length]).toEqual([2048, 64, 512]);
    expect(startAccessRecord()(SEEN)).toMatchObject({ ip: null, userAgent: null, userId: null });
  });
});
