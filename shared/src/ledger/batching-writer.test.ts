import { describe, expect, it, vi } from 'vitest';
import { createBatchingLedgerWriter } from './batching-writer';
import type { RequestLogStore } from './port';
import type { RequestLogRecord } from './record';

const record = (id: string) => ({ id }) as RequestLogRecord;

function recordingStore(fail = false) {
  const batches: string[][] = [];
  const store: RequestLogStore = {
    insert: async (records) => {
      batches.push(records.map((r) => r.id));
      if (fail) throw new Error('store down');
    },
    list: async () => [],
    costSince: async () => 0,
    search: async () => ({ total: 0, entries: [] }),
    aggregate: async () => [],
  };
  return { store, batches };
}

describe('createBatchingLedgerWriter', () => {
  it('sends the records of one window as one insert, and resolves each write after it', async () => {
    vi.useFakeTimers();
    const { store, batches } = recordingStore();
    const writer = createBatchingLedgerWriter(store, { maxDelayMs: 100, onError: () => {} });
    const writes = [writer.write(record('a')), writer.write(record('b'))];
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(writes);
    expect(batches).toEqual([['a', 'b']]);
    const third = writer.write(record('c'));
    await vi.advanceTimersByTimeAsync(100);
    await third;
    expect(batches).toEqual([['a', 'b'], ['c']]);
    vi.useRealTimers();
  });

  it('sends at once when a batch is full', async () => {
    const { store, batches } = recordingStore();
    const writer = createBatchingLedgerWriter(store, { maxBatch: 2, maxDelayMs: 60_000, onError: () => {} });
    await Promise.all([writer.write(record('a')), writer.write(record('b'))]);
    expect(batches).toEqual([['a', 'b']]);
  });

  it('reports a failed batch and never rejects', async () => {
    const { store } = recordingStore(true);
    const failed: string[][] = [];
    const writer = createBatchingLedgerWriter(store, {
      maxDelayMs: 1,
      onError: (_error, records) => failed.push(records.map((r) => r.id)),
    });
    await expect(writer.write(record('a'))).resolves.toBeUndefined();
    expect(failed).toEqual([['a']]);
  });
});
