import { describe, expect, it } from 'vitest';
import { figureRow, figuresCsv, percentile, runInterleaved, type TimedCase } from './timed-cases';

describe('percentile', () => {
  it('is the nearest rank', () => {
    const sorted = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(10);
    expect(percentile(sorted, 95)).toBe(19);
    expect(percentile(sorted, 100)).toBe(20);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('runInterleaved', () => {
  it('warms each case up once, then runs them in turn, round after round', async () => {
    const order: string[] = [];
    const rounds: number[] = [];
    const make = (name: string, status: number): TimedCase => {
      let calls = 0;
      return {
        group: 'g',
        name,
        run: async () => {
          order.push(name);
          calls++;
          // 11 bytes at the warm-up (not counted), then 10 and 11: a median of 10.5, shown whole.
          return { status, bytes: 10 + (calls % 2), items: () => ({ count: 2, total: 5 }) };
        },
      };
    };
    const figures = await runInterleaved([make('a', 200), make('b', 404)], 2, async (round) => {
      rounds.push(round);
    });
    expect(rounds).toEqual([-1, 0, 1]);
    expect(order).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    expect(figures.map((f) => f.took.length)).toEqual([2, 2]);
    expect(figureRow(figures[1]!).slice(4)).toEqual(['11', '2 of 5', '404', '']);
  });

  it('counts a failed call without stopping the others, and says why it failed', async () => {
    let calls = 0;
    const flaky: TimedCase = {
      group: 'g',
      name: 'flaky',
      run: async () => {
        calls++;
        if (calls % 2 === 0) throw new Error('upstream went away');
        return { status: 200, bytes: null };
      },
    };
    const [figures] = await runInterleaved([flaky], 4);
    expect(figures!.failures).toEqual(['upstream went away', 'upstream went away']);
    expect(figureRow(figures!)[7]).toBe('2: upstream went away');
    const csv = figuresCsv([figures!]).split('\n');
    expect(csv[0]).toBe('group,case,runs,p50_ms,p95_ms,max_ms,bytes,items,total,statuses,failures');
    expect(csv[1]).toMatch(/^g,flaky,4,[\d.]+,[\d.]+,[\d.]+,,,,200x2,2$/);
  });
});
