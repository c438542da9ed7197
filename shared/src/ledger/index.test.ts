import { describe, expect, it, vi } from 'vitest';
import { createLedgerWriter } from './index';
import type { RequestLogStore } from './port';
import type { RequestLogRecord } from './record';

const record = { id: 'r1' } as RequestLogRecord;

function store(insert: RequestLogStore['insert']): RequestLogStore {
  return { insert, list: async () => [] };
}

describe('createLedgerWriter', () => {
  it('inserts the record as a batch of one', async () => {
    const insert = vi.fn(async () => {});
    const onError = vi.fn();
    await createLedgerWriter(store(insert), { onError }).write(record);
    expect(insert).toHaveBeenCalledWith([record]);
    expect(onError).not.toHaveBeenCalled();
  });

  it('never rejects: store failures (async or sync) go to onError', async () => {
    const failure = new Error('down');
    const onError = vi.fn();
    await expect(
      createLedgerWriter(
        store(async () => Promise.reject(failure)),
        { onError },
      ).write(record),
    ).resolves.toBeUndefined();
    expect(onError).toHaveBeenCalledWith(failure, record);

    const sync: RequestLogStore['insert'] = () => {
      throw failure;
    };
    await expect(createLedgerWriter(store(sync), { onError }).write(record)).resolves.toBeUndefined();
    expect(onError).toHaveBeenCalledTimes(2);
  });

  it('never rejects even when onError throws', async () => {
    const writer = createLedgerWriter(
      store(async () => Promise.reject(new Error('down'))),
      {
        onError: () => {
          throw new Error('logger broke');
        },
      },
    );
    await expect(writer.write(record)).resolves.toBeUndefined();
  });
});
