import { describe, expect, it } from 'vitest';
import { createBreaker } from '../../stores/breaker';
import { drainSpill, type SpillTable, type SpillTarget, spillingInsert } from './log-spill';

interface Row {
  id: string;
}

function memorySpill(): SpillTable<Row> & { rows: Row[] } {
  const table = {
    rows: [] as Row[],
    insert: async (records: readonly Row[]) => void table.rows.push(...records),
    oldest: async (limit: number) => table.rows.slice(0, limit),
    remove: async (ids: readonly string[]) => {
      table.rows = table.rows.filter((row) => !ids.includes(row.id));
    },
  };
  return table;
}

function memoryTarget(): SpillTarget<Row> & { rows: Row[]; up: boolean; inserts: number } {
  const target = {
    rows: [] as Row[],
    up: true,
    inserts: 0,
    async insert(records: readonly Row[]) {
      target.inserts += 1;
      if (!target.up) throw new Error('ECONNREFUSED');
      target.rows.push(...records);
    },
    async existingIds(ids: readonly string[]) {
      if (!target.up) throw new Error('ECONNREFUSED');
      return new Set(target.rows.map((r) => r.id).filter((id) => ids.includes(id)));
    },
  };
  return target;
}

const rows = (...ids: string[]): Row[] => ids.map((id) => ({ id }));
const breaker = (target: { up: boolean }) =>
  createBreaker({ store: 'ClickHouse', probe: async () => target.up || Promise.reject(), probeEveryMs: 0 });

describe('spillingInsert', () => {
  it('writes to ClickHouse while it answers, to the spill when it does not, and skips it once down', async () => {
    const target = memoryTarget();
    const spill = memorySpill();
    const insert = spillingInsert(target, spill, breaker(target));
    await insert(rows('a'));
    target.up = false;
    await insert(rows('b'));
    await insert(rows('c'));
    expect(target.rows).toEqual(rows('a'));
    expect(spill.rows).toEqual(rows('b', 'c'));
    // The second batch went straight to the spill: the breaker had opened on the first failure.
    expect(target.inserts).toBe(2);
    target.up = true;
    await insert(rows('d')); // refused while open, but its probe closes the breaker
    await insert(rows('e'));
    expect(target.rows).toEqual(rows('a', 'e'));
  });

  it('rejects only when the spill fails too (the writer then keeps the rows)', async () => {
    const target = memoryTarget();
    target.up = false;
    const spill = { ...memorySpill(), insert: async () => Promise.reject(new Error('pg down')) };
    await expect(spillingInsert(target, spill, breaker(target))(rows('x'))).rejects.toThrow('pg down');
  });
});

describe('drainSpill', () => {
  it('moves every row once, oldest first, in batches, and skips rows a cut-short run copied', async () => {
    const target = memoryTarget();
    const spill = memorySpill();
    spill.rows = rows('1', '2', '3', '4', '5');
    target.rows = rows('2'); // copied by a run that stopped before its delete
    expect(await drainSpill(spill, target, { batchSize: 2 })).toBe(5);
    expect(target.rows.map((r) => r.id).sort()).toEqual(['1', '2', '3', '4', '5']);
    expect(spill.rows).toEqual([]);
  });

  it('deletes nothing when ClickHouse cannot take the rows', async () => {
    const target = memoryTarget();
    target.up = false;
    const spill = memorySpill();
    spill.rows = rows('1');
    await expect(drainSpill(spill, target)).rejects.toThrow();
    expect(spill.rows).toEqual(rows('1'));
  });
});
