import { describe, expect, it } from 'vitest';
import type { ApiKeyAuthRecord } from '../../db/repos/api-keys-repo';
import { refuseKey } from './key-state';

const NOW = new Date('2026-06-15T12:00:00Z');
const base: ApiKeyAuthRecord = {
  id: 'k',
  userId: 'u',
  userRole: 'user',
  userActive: true,
  keyHash: 'current',
  previousKeyHash: null,
  status: 'active',
  allowedModels: null,
  rateLimitRpm: null,
  expiresAt: null,
  gracePeriodEndsAt: null,
  lastUsedAt: null,
  inactivityTimeoutDays: null,
  createdAt: new Date('2026-06-01T00:00:00Z'),
};

describe('refuseKey', () => {
  it('accepts an active key', () => expect(refuseKey(base, 'current', NOW)).toBeNull());

  it.each([
    ['revoked', { status: 'revoked' as const }],
    ['disabled', { status: 'disabled' as const }],
    ['expired', { status: 'expired' as const }],
    ['expired', { expiresAt: new Date('2026-06-15T12:00:00Z') }],
    ['owner_inactive', { userActive: false }],
    ['inactive', { inactivityTimeoutDays: 3, lastUsedAt: new Date('2026-06-12T11:59:59Z') }],
  ])('refuses as %s', (reason, patch) => {
    expect(refuseKey({ ...base, ...patch }, 'current', NOW)).toBe(reason);
  });

  it('accepts the previous value only until the grace period ends', () => {
    const rotated = { ...base, previousKeyHash: 'old', gracePeriodEndsAt: new Date('2026-06-15T12:00:01Z') };
    expect(refuseKey(rotated, 'old', NOW)).toBeNull();
    expect(refuseKey({ ...rotated, gracePeriodEndsAt: NOW }, 'old', NOW)).toBe('grace_ended');
    expect(refuseKey({ ...rotated, gracePeriodEndsAt: NOW }, 'current', NOW)).toBeNull();
  });

  it('counts inactivity from creation when the key was never used', () => {
    expect(refuseKey({ ...base, inactivityTimeoutDays: 30 }, 'current', NOW)).toBeNull();
    expect(refuseKey({ ...base, inactivityTimeoutDays: 10 }, 'current', NOW)).toBe('inactive');
  });
});
