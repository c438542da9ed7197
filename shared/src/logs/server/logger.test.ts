import { describe, expect, it, vi } from 'vitest';
import { createLogger, errorText, type LogEcho, logLevelFromEnv } from './logger';
import type { AppLogRecord, LogLevel } from './records';

const T = new Date('2025-05-01T12:00:00.000Z');

function harness(options: { minLevel?: LogLevel; fail?: boolean; store?: boolean } = {}) {
  const lines: { level: LogLevel; line: string }[] = [];
  const batches: AppLogRecord[][] = [];
  let ids = 0;
  const echo: LogEcho = (level, line) => lines.push({ level, line });
  const store = {
    insert: async (records: readonly AppLogRecord[]) => {
      batches.push([...records]);
      if (options.fail) throw new Error('store down');
    },
  };
  const logger = createLogger({
    source: 'gateway',
    target: 'gateway',
    store: options.store === false ? null : store,
    minLevel: options.minLevel,
    echo,
    now: () => T,
    newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    maxDelayMs: 5,
  });
  const parsed = () => lines.map((l) => JSON.parse(l.line));
  return { logger, lines, batches, parsed, stored: () => batches.flat() };
}

describe('createLogger', () => {
  it('stores and prints INFO and above by default; TRACE and DEBUG cost nothing', async () => {
    const h = harness();
    h.logger.trace('t');
    h.logger.debug('d');
    h.logger.info('i', { n: 1 });
    h.logger.warn('w');
    h.logger.error('e');
    await h.logger.flush();
    expect(h.stored().map((r) => [r.level, r.message])).toEqual([
      ['INFO', 'i'],
      ['WARN', 'w'],
      ['ERROR', 'e'],
    ]);
    expect(h.lines.map((l) => l.level)).toEqual(['INFO', 'WARN', 'ERROR']);
    // One batch for the three lines, not one insert per line.
    expect(h.batches).toHaveLength(1);
  });

  it('honours a configured minimum level, in both directions', async () => {
    const debug = harness({ minLevel: 'DEBUG' });
    debug.logger.trace('t');
    debug.logger.debug('d');
    await debug.logger.flush();
    expect(debug.stored().map((r) => r.level)).toEqual(['DEBUG']);
    const error = harness({ minLevel: 'ERROR' });
    error.logger.warn('w');
    error.logger.error('e');
    await error.logger.flush();
    expect(error.stored().map((r) => r.level)).toEqual(['ERROR']);
  });

  it('prints one JSON line as before and stores the same record with the child target', async () => {
    const h = harness();
    h.logger.child('proxy').warn('cache down', { error: 'boom', lost: 2, level: 'spoof' });
    await h.logger.flush();
    expect(h.lines[0]?.line).toBe(
      '{"level":"WARN","target":"proxy","message":"cache down","error":"boom","lost":2}',
    );
    expect(h.stored()).toEqual([
      {
        id: '00000000-0000-4000-8000-000000000001',
        createdAt: T,
        level: 'WARN',
        source: 'gateway',
        target: 'proxy',
        message: 'cache down',
        fields: { error: 'boom', lost: 2, level: 'spoof' },
      },
    ]);
  });

  it('children of children replace the target; the root keeps its own', async () => {
    const h = harness();
    const proxy = h.logger.child('proxy');
    proxy.child('limits').info('a');
    proxy.info('b');
    h.logger.info('c');
    await h.logger.flush();
    expect(h.stored().map((r) => r.target)).toEqual(['limits', 'proxy', 'gateway']);
  });

  it('makes fields JSON-safe: errors, bigints, undefined, NUL; a cycle drops the fields, not the line', async () => {
    const h = harness();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    h.logger.info('x\u0000y', { error: new TypeError('bad'), big: 10n, gone: undefined, s: 'a\u0000b' });
    h.logger.info('cycle', cyclic);
    await h.logger.flush();
    expect(h.stored().map((r) => [r.message, r.fields])).toEqual([
      ['x\uFFFDy', { error: { name: 'TypeError', message: 'bad' }, big: '10', s: 'a\uFFFDb' }],
      ['cycle', { fields_error: 'fields could not be serialized' }],
    ]);
  });

  it('never throws when the store fails, and reports each failed batch once, printed only', async () => {
    // Fake timers: whatever the logger schedules runs when the test says, however slow the machine.
    vi.useFakeTimers();
    try {
      const h = harness({ fail: true });
      expect(() => h.logger.error('first')).not.toThrow();
      const flushed = h.logger.flush();
      await vi.advanceTimersByTimeAsync(5);
      await expect(flushed).resolves.toBeUndefined();
      // The failure is printed, not logged through the store: no feedback loop.
      expect(h.batches).toHaveLength(1);
      const failures = h.parsed().filter((line) => line.message === 'app log write failed');
      expect(failures).toEqual([
        {
          level: 'WARN',
          target: 'server-logs',
          message: 'app log write failed',
          error: 'Error: store down',
          records: 1,
        },
      ]);
      // Nothing retries on its own: the failed record waits for the next batch.
      await vi.runAllTimersAsync();
      expect(h.batches).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('cuts a long store error short (driver errors carry the whole batch)', async () => {
    const printed: string[] = [];
    const logger = createLogger({
      source: 'gateway',
      target: 'gateway',
      store: { insert: () => Promise.reject(new Error('x'.repeat(5000))) },
      echo: (_level, line) => printed.push(line),
      maxDelayMs: 1,
    });
    logger.info('one');
    await logger.flush();
    const failure = JSON.parse(printed[1] ?? '{}');
    expect(failure.message).toBe('app log write failed');
    expect(failure.error).toHaveLength(501);
    expect(failure.error.startsWith('Error: xxx')).toBe(true);
  });

  it('never throws when the store throws synchronously or the echo throws', async () => {
    const logger = createLogger({
      source: 'console',
      target: 'console',
      store: {
        insert: () => {
          throw new Error('sync failure');
        },
      },
      echo: () => {
        throw new Error('stdout closed');
      },
      maxDelayMs: 1,
    });
    expect(() => logger.warn('still fine')).not.toThrow();
    await expect(logger.flush()).resolves.toBeUndefined();
  });

  it('flush waits for writes started while it waits, and settles at once when idle', async () => {
    const h = harness();
    await h.logger.flush();
    h.logger.info('one');
    const flushed = h.logger.flush();
    h.logger.info('two');
    await flushed;
    expect(h.stored().map((r) => r.message)).toEqual(['one', 'two']);
  });

  it('with no store only prints', async () => {
    const h = harness({ store: false });
    h.logger.warn('w');
    await h.logger.flush();
    expect([h.lines.length, h.batches.length]).toEqual([1, 0]);
  });
});

describe('logLevelFromEnv', () => {
  it('defaults to INFO, accepts any case, refuses unknown levels', () => {
    expect(logLevelFromEnv({})).toBe('INFO');
    expect(logLevelFromEnv({ SLUICE_LOG_LEVEL: '' })).toBe('INFO');
    expect(logLevelFromEnv({ SLUICE_LOG_LEVEL: 'debug' })).toBe('DEBUG');
    expect(() => logLevelFromEnv({ SLUICE_LOG_LEVEL: 'verbose' })).toThrow(/SLUICE_LOG_LEVEL/);
  });
});

describe('errorText', () => {
  it('keeps the cause a wrapping error hides, and cuts both short', () => {
    const wrapped = new Error(`Failed query: insert ${'x'.repeat(600)}`, {
      cause: new Error('could not serialize access due to concurrent update'),
    });
    const text = errorText(wrapped);
    expect(text).toContain('(cause: Error: could not serialize access due to concurrent update)');
    expect(text.length).toBeLessThan(900);
    expect(errorText('plain')).toBe('plain');
  });
});
