import { describe, expect, it } from 'vitest';
import type { ApiKeyAuthRecord } from '../../db/repos/api-keys-repo';
import { decodeEntry, encodeEntry } from './auth-cache';

const record: ApiKeyAuthRecord = {
  id: 'k',
  userId: 'u',
  userRole: 'user',
  userActive: true,
  keyHash: 'a'.repeat(64),
  previousKeyHash: null,
  status: 'active',
  allowedModels: ['gpt-a'],
  rateLimitRpm: 10,
  expiresAt: new Date('2026-07-01T00:00:00.000Z'),
  gracePeriodEndsAt: null,
  lastUsedAt: new Date('2026-06-01T12:34:56.789Z'),
  inactivityTimeoutDays: 30,
  createdAt: new Date('2026-05-01T00:00:00.000Z'),
};

describe('key cache entries', () => {
  it('round-trip a record through JSON with its dates as Dates', () => {
    // The Upstash client hands back parsed JSON; a raw string is accepted as well.
    for (const raw of [encodeEntry(record), JSON.parse(encodeEntry(record))]) {
      const entry = decodeEntry(raw);
      expect(entry).toEqual({ kind: 'hit', record });
      expect(entry.kind === 'hit' && entry.record?.expiresAt).toBeInstanceOf(Date);
    }
  });

  it('round-trip the negative marker', () => {
    expect(decodeEntry(encodeEntry(null))).toEqual({ kind: 'hit', record: null });
  });

  it('read tombstones as stale and anything unexpected as a miss', () => {
    expect(decodeEntry({ v: 1, stale: true })).toEqual({ kind: 'stale' });
    for (const raw of [
      null,
      undefined,
      'not json',
      42,
      { v: 2, record: null },
      { v: 1, record: { id: 1 } },
    ]) {
      expect(decodeEntry(raw)).toEqual({ kind: 'miss' });
    }
    const badDate = JSON.parse(encodeEntry(record));
    badDate.record.createdAt = 'yesterday';
    expect(decodeEntry(badDate)).toEqual({ kind: 'miss' });
  });
});
