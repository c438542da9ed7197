import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSpillDrainJob } from './jobs';

function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const child = () => ({
    info: (message: string) => void lines.push({ level: 'info', message }),
    warn: (message: string) => void lines.push({ level: 'warn', message }),
    error: (message: string) => void lines.push({ level: 'error', message }),
  });
  return { lines, logger: { child } as never };
}

afterEach(() => vi.useRealTimers());

describe('a repeating console job', () => {
  it('reports one failure per outage, never runs twice at once, and reports what it did', async () => {
    vi.useFakeTimers();
    const { lines, logger } = recordingLogger();
    const outcomes: Array<() => Promise<number>> = [
      () => Promise.reject(new Error('down')),
      () => Promise.reject(new Error('down')),
      () => Promise.resolve(3),
      () => Promise.reject(new Error('down again')),
    ];
    let calls = 0;
    let release: () => void = () => {};
    const drainLogSpill = () => {
      calls += 1;
      if (calls === 5)
        return new Promise<number>((resolve) => {
          release = () => resolve(0);
        });
      return (outcomes[calls - 1] ?? (() => Promise.resolve(0)))();
    };
    const stop = startSpillDrainJob({ drainLogSpill, logger }, 1000);
    for (let i = 0; i < 4; i++) await vi.advanceTimersByTimeAsync(1000);
    expect(lines.map((l) => `${l.level}: ${l.message}`)).toEqual([
      'warn: cannot move log rows yet',
      'info: log rows moved to ClickHouse',
      'warn: cannot move log rows yet',
    ]);
    // A run that hangs is not joined by the next ticks.
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls).toBe(5);
    release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(6);
    stop();
  });
});
