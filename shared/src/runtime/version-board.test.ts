import { describe, expect, it } from 'vitest';
import { createVersionBoard } from './version-board';

function board(values: Record<string, string>, options: { fail?: boolean } = {}) {
  let reads = 0;
  let clock = 1_000;
  const b = createVersionBoard({
    parts: [
      { name: 'keys', key: 'v:keys' },
      { name: 'routing', key: 'v:routing' },
    ],
    read: async (keys) => {
      reads += 1;
      if (options.fail) throw new Error('redis down');
      return keys.map((k) => values[k] ?? '');
    },
    timeoutMs: 100,
    checkMs: 1_000,
    now: () => clock,
  });
  const advance = (ms: number): void => {
    clock += ms;
  };
  return { b, reads: () => reads, advance };
}

describe('createVersionBoard', () => {
  it('reads every version once before the first load and sends them as expected values', async () => {
    const { b, reads } = board({ 'v:keys': '3' });
    expect(b.expected()).toEqual([
      { key: 'v:keys', expected: '*' },
      { key: 'v:routing', expected: '*' },
    ]);
    await Promise.all([b.ready(), b.ready()]);
    await b.ready();
    expect(reads()).toBe(1);
    expect(b.expected()).toEqual([
      { key: 'v:keys', expected: '3' },
      { key: 'v:routing', expected: '' },
    ]);
  });

  it('invalidates only the parts that moved, once per move', async () => {
    const { b } = board({ 'v:keys': '3', 'v:routing': '7' });
    await b.ready();
    const cleared: string[] = [];
    b.part('keys').onChange(() => cleared.push('keys'));
    b.part('routing').onChange(() => cleared.push('routing'));
    expect(b.observe(['3', '7'])).toEqual([]);
    expect(b.observe(['3', '8'])).toEqual(['routing']);
    expect(b.observe(['3', '8'])).toEqual([]);
    expect(cleared).toEqual(['routing']);
    expect(b.part('routing').generation()).toBe(1);
    expect(b.part('keys').generation()).toBe(0);
  });

  it('adopts versions it could not read at first without dropping anything', async () => {
    const { b } = board({}, { fail: true });
    await b.ready();
    expect(b.expected().map((v) => v.expected)).toEqual(['*', '*']);
    expect(b.observe(['1', '2'])).toEqual([]);
    expect(b.part('keys').generation()).toBe(0);
    expect(b.observe(['2', '2'])).toEqual(['keys']);
  });

  it('refresh() reads only when nothing was seen within maxAgeMs; 0 always reads', async () => {
    const { b, reads, advance } = board({ 'v:keys': '1' });
    await b.ready();
    await b.refresh();
    expect(reads()).toBe(1);
    advance(1_001);
    await b.refresh();
    expect(reads()).toBe(2);
    await b.refresh(0);
    expect(reads()).toBe(3);
    b.observe(['1', '']);
    advance(500);
    await b.refresh();
    expect(reads()).toBe(3);
  });
});
