import { describe, expect, it, vi } from 'vitest';
import { createIsolateCache } from './isolate-cache';
import { createVersionBoard } from './version-board';

function setup(options: { refreshAfterMs?: number } = {}) {
  let clock = 0;
  let version = '1';
  const loads: string[] = [];
  let value = 'v1';
  let failing = false;
  let gate: Promise<void> = Promise.resolve();
  const board = createVersionBoard({
    parts: [{ name: 'routing', key: 'v' }],
    read: async () => [version],
    timeoutMs: 100,
  });
  const background: Array<Promise<unknown>> = [];
  const cache = createIsolateCache<string>({
    part: board.part('routing'),
    ready: () => board.ready(),
    load: async (key) => {
      loads.push(key);
      const seen = value;
      await gate;
      if (failing) throw new Error('postgres down');
      return `${key}:${seen}`;
    },
    refreshAfterMs: options.refreshAfterMs ?? 1_000,
    waitMs: 500,
    now: () => clock,
  });
  return {
    board,
    cache,
    loads,
    background,
    bg: (task: Promise<unknown>) => void background.push(task),
    set: (next: { clock?: number; version?: string; value?: string; failing?: boolean }) => {
      clock = next.clock ?? clock;
      version = next.version ?? version;
      value = next.value ?? value;
      failing = next.failing ?? failing;
    },
    /** New loads go through again; a held one stays held (its I/O lost with its request). */
    reopen: () => {
      gate = Promise.resolve();
    },
    hold: () => {
      let release: () => void = () => {};
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        gate = Promise.resolve();
        release();
      };
    },
  };
}

describe('createIsolateCache', () => {
  it('loads a missing value once however many ask, then serves it without loading', async () => {
    const s = setup();
    const answers = await Promise.all([s.cache.get('m', s.bg), s.cache.get('m', s.bg)]);
    expect(answers).toEqual(['m:v1', 'm:v1']);
    expect(await s.cache.get('m', s.bg)).toBe('m:v1');
    expect(s.loads).toEqual(['m']);
    expect(s.cache.peek('m')).toBe('m:v1');
  });

  it('past refreshAfterMs serves the old value and reloads it in the background', async () => {
    const s = setup();
    await s.cache.get('m', s.bg);
    s.set({ clock: 1_500, value: 'v2' });
    expect(await s.cache.get('m', s.bg)).toBe('m:v1');
    expect(s.background).toHaveLength(1);
    await Promise.all(s.background);
    expect(await s.cache.get('m', s.bg)).toBe('m:v2');
  });

  it('keeps the old value when a background reload fails and tries again a period later', async () => {
    const s = setup();
    await s.cache.get('m', s.bg);
    s.set({ clock: 1_500, failing: true });
    expect(await s.cache.get('m', s.bg)).toBe('m:v1');
    await Promise.all(s.background);
    expect(await s.cache.get('m', s.bg)).toBe('m:v1');
    expect(s.background).toHaveLength(1);
    s.set({ clock: 2_600, failing: false, value: 'v3' });
    await s.cache.get('m', s.bg);
    await Promise.all(s.background);
    expect(await s.cache.get('m', s.bg)).toBe('m:v3');
  });

  it('drops every entry when the version moves, and does not keep a load that straddled the move', async () => {
    const s = setup();
    await s.cache.get('m', s.bg);
    const release = s.hold();
    const straddling = s.cache.get('other', s.bg);
    // Under way (it has read the value) before the version moves.
    await vi.waitFor(() => expect(s.loads).toContain('other'), { interval: 1 });
    s.set({ value: 'v2' });
    expect(s.board.observe(['2'])).toEqual(['routing']);
    release();
    expect(await straddling).toBe('other:v1');
    expect(s.cache.peek('other')).toBeUndefined();
    expect(s.cache.peek('m')).toBeUndefined();
    expect(await s.cache.get('m', s.bg)).toBe('m:v2');
  });

  it('a caller waits for a load at most waitMs', async () => {
    const s = setup();
    s.hold();
    await expect(s.cache.get('slow', s.bg)).rejects.toThrow('did not answer within 500 ms');
  });

  it('abandons a load that never settles: a later caller past waitMs starts a fresh one', async () => {
    const s = setup();
    s.hold();
    await expect(s.cache.get('key', s.bg)).rejects.toThrow('did not answer within 500 ms');
    // Within the load's lifetime a second caller still joins it rather than piling on.
    s.set({ clock: 100 });
    s.reopen();
    await expect(s.cache.get('key', s.bg)).rejects.toThrow('did not answer within 500 ms');
    expect(s.loads).toEqual(['key']);
    s.set({ clock: 600 });
    expect(await s.cache.get('key', s.bg)).toBe('key:v1');
    expect(s.loads).toEqual(['key', 'key']);
    expect(s.cache.peek('key')).toBe('key:v1');
  });
});
