import { describe, expect, it, vi } from 'vitest';
import type { RequestLogStore } from '../logs/requests/port';
import type { RequestLogRecord } from '../logs/requests/record';
import { createBatchingLedgerWriter } from './batching-writer';

const record = (id: string) => ({ id }) as RequestLogRecord;

function recordingStore(fail = false) {
  const batches: string[][] = [];
  const store: RequestLogStore = {
    insert: async (records) => {
      batches.push(records.map((r) => r.id));
      if (fail) throw new Error('store down');
    },
    list: async () => [],
    usageSince: async () => ({ costUsd: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }),
    search: async () => ({ total: 0, entries: [] }),
    aggregate: async () => [],
    clientUsage: async () => [],
    errorCounts: async () => [],
    countedUsage: async () => [],
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

/** A store that fails while `down` is set, recording every batch it was handed. */
function switchableStore() {
  const state = { down: true, batches: [] as string[][], stored: [] as string[] };
  const store = {
    insert: async (records: readonly { id: string }[]) => {
      state.batches.push(records.map((r) => r.id));
      if (state.down) throw new Error('clickhouse down');
      state.stored.push(...records.map((r) => r.id));
    },
  };
  return { store, state };
}

const item = (id: string) => ({ id });

describe('createBatchingLedgerWriter while the store is down', () => {
  it('keeps failed records and sends them with the next batch, in order, until stored', async () => {
    const { store, state } = switchableStore();
    const errors: string[][] = [];
    const drops: number[] = [];
    const writer = createBatchingLedgerWriter(store, {
      maxDelayMs: 1,
      onError: (_e, records) => errors.push(records.map((r) => r.id)),
      onDrop: (count) => drops.push(count),
    });
    await Promise.all([writer.write(item('a')), writer.write(item('b'))]);
    await writer.write(item('c'));
    state.down = false;
    await writer.write(item('d'));
    expect(state.batches).toEqual([
      ['a', 'b'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c', 'd'],
    ]);
    expect(state.stored).toEqual(['a', 'b', 'c', 'd']);
    expect(errors).toEqual([
      ['a', 'b'],
      ['a', 'b', 'c'],
    ]);
    expect(drops).toEqual([]);
    // Nothing is sent twice once stored.
    await writer.write(item('e'));
    expect(state.batches.at(-1)).toEqual(['e']);
  });

  it('bounds the buffer: the oldest records that do not fit are dropped and counted', async () => {
    const { store, state } = switchableStore();
    const drops: number[] = [];
    const writer = createBatchingLedgerWriter(store, {
      maxDelayMs: 1,
      maxBuffered: 3,
      maxAttempts: 100,
      onError: () => {},
      onDrop: (count) => drops.push(count),
    });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => writer.write(item(id))));
    expect(drops).toEqual([2]);
    await writer.write(item('f'));
    expect(state.batches[1]).toEqual(['c', 'd', 'e', 'f']);
    expect(drops).toEqual([2, 1]);
    state.down = false;
    await writer.write(item('g'));
    expect(state.stored).toEqual(['d', 'e', 'f', 'g']);
  });

  it('gives a record up after maxAttempts failed inserts', async () => {
    const { store, state } = switchableStore();
    const drops: number[] = [];
    const writer = createBatchingLedgerWriter(store, {
      maxDelayMs: 1,
      maxAttempts: 2,
      onError: () => {},
      onDrop: (count) => drops.push(count),
    });
    await writer.write(item('a'));
    await writer.write(item('b'));
    await writer.write(item('c'));
    expect(state.batches).toEqual([['a'], ['a', 'b'], ['b', 'c']]);
    expect(drops).toEqual([1, 1]);
  });

  it('with maxBuffered 0 drops a failed batch at once', async () => {
    const { store, state } = switchableStore();
    const drops: number[] = [];
    const writer = createBatchingLedgerWriter(store, {
      maxDelayMs: 1,
      maxBuffered: 0,
      onError: () => {},
      onDrop: (count) => drops.push(count),
    });
    await Promise.all([writer.write(item('a')), writer.write(item('b'))]);
    await writer.write(item('c'));
    expect(state.batches).toEqual([['a', 'b'], ['c']]);
    expect(drops).toEqual([2, 1]);
  });

  it('never rejects, even when the handlers throw', async () => {
    const { store } = switchableStore();
    const writer = createBatchingLedgerWriter(store, {
      maxDelayMs: 1,
      maxBuffered: 0,
      onError: () => {
        throw new Error('handler broken');
      },
      onDrop: () => {
        throw new Error('handler broken');
      },
    });
    await expect(writer.write(item('a'))).resolves.toBeUndefined();
  });
});
