import { describe, expect, it } from 'vitest';
import type { Db } from '../db/types';
import { CACHE_VERSION_KEYS, commitThenBump } from './cache-versions';

/** A db whose transaction runs the change (or rethrows, as a rollback does), in order with INCRs. */
function ports(options: { incrFails?: boolean; firstIncrFails?: boolean } = {}) {
  let failedOnce = false;
  const events: string[] = [];
  const warnings: string[] = [];
  const db = {
    transaction: async <T>(change: (tx: Db) => Promise<T>) => {
      const result = await change(db as unknown as Db);
      events.push('commit');
      return result;
    },
  } as unknown as Db;
  const redis = {
    incr: async (key: string) => {
      if (options.incrFails) throw new Error('redis down');
      if (options.firstIncrFails && !failedOnce) {
        failedOnce = true;
        throw new Error('connection died while idle');
      }
      events.push(`incr ${key}`);
      return 1;
    },
  };
  const logger = { warn: (message: string) => warnings.push(message) };
  return { deps: { db, redis, logger }, events, warnings };
}

describe('commitThenBump', () => {
  it('moves each named counter once, after the commit', async () => {
    const { deps, events } = ports();
    expect(await commitThenBump(deps, ['routing', 'limits', 'routing'], async () => 'done')).toBe('done');
    expect(events).toEqual([
      'commit',
      `incr ${CACHE_VERSION_KEYS.routing}`,
      `incr ${CACHE_VERSION_KEYS.limits}`,
    ]);
  });

  it('lets the change name its parts from what it found', async () => {
    const { deps, events } = ports();
    await commitThenBump(
      deps,
      (changed: boolean) => (changed ? ['keys'] : []),
      async () => false,
    );
    expect(events).toEqual(['commit']);
  });

  it('moves nothing when the change fails', async () => {
    const { deps, events } = ports();
    const failing = commitThenBump(deps, ['settings'], async () => {
      throw new Error('conflict');
    });
    await expect(failing).rejects.toThrow('conflict');
    expect(events).toEqual([]);
  });

  it('tries a failed bump once more (a dead connection is replaced), and logs nothing when it lands', async () => {
    const { deps, events, warnings } = ports({ firstIncrFails: true });
    await commitThenBump(deps, ['settings'], async () => 'done');
    expect(events).toEqual(['commit', `incr ${CACHE_VERSION_KEYS.settings}`]);
    expect(warnings).toEqual([]);
  });

  it('a Redis outage after the commit is logged, not returned: the change is in', async () => {
    const { deps, warnings } = ports({ incrFails: true });
    expect(await commitThenBump(deps, ['mcp'], async () => 7)).toBe(7);
    expect(warnings).toEqual(['mcp cache version bump failed; gateways catch up on their refresh']);
  });
});
