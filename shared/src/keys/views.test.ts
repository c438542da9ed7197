import { describe, expect, it } from 'vitest';
import { toExpiringKeyView } from './views';

const NOW = new Date('2026-06-15T12:00:00Z');
const row = (expiresAt: string) => ({
  id: 'k',
  name: 'n',
  prefix: 'sluice-abcde',
  expiresAt: new Date(expiresAt),
  ownerEmail: 'o@example.com',
});

describe('toExpiringKeyView', () => {
  it.each([
    ['2026-06-15T13:00:00Z', 1],
    ['2026-06-16T12:00:00Z', 1],
    ['2026-06-16T12:00:01Z', 2],
    ['2026-06-22T12:00:00Z', 7],
  ])('counts whole days left, rounded up (%s → %i)', (expiresAt, days) => {
    expect(toExpiringKeyView(row(expiresAt), NOW).days_remaining).toBe(days);
  });
});
