import { ClickHouseError } from '@clickhouse/client-web';
import { type Breaker, createBreaker } from '../../stores/breaker';
import type { Background } from '../../util/background';
import { withDeadline } from '../../util/deadline';

/**
 * Where a log's rows wait while ClickHouse cannot take them: the Postgres table of the same log
 * (the one deployments without ClickHouse read), durable and already migrated everywhere.
 */
export interface SpillTable<R extends { id: string }> {
  insert(records: readonly R[]): Promise<void>;
  /** The oldest rows waiting, at most `limit`. */
  oldest(limit: number): Promise<R[]>;
  remove(ids: readonly string[]): Promise<void>;
}

/** The ClickHouse side of a log, as the spill needs it. */
export interface SpillTarget<R> {
  insert(records: readonly R[]): Promise<void>;
  /** Which of these ids the table holds already (a drain cut short may have copied them). */
  existingIds(ids: readonly string[]): Promise<Set<string>>;
}

/** How often a gateway that holds ClickHouse for down asks it again. */
export const CLICKHOUSE_PROBE_EVERY_MS = 5_000;

/** One breaker per ClickHouse client: inserts skip a ClickHouse known to be down. */
export function clickhouseBreaker(
  ping: () => Promise<unknown>,
  timeoutMs: number,
  onChange?: (open: boolean, error?: unknown) => void,
): Breaker {
  return createBreaker({
    store: 'ClickHouse',
    probe: () => withDeadline(ping(), timeoutMs, 'ClickHouse (probe)'),
    probeEveryMs: CLICKHOUSE_PROBE_EVERY_MS,
    onChange,
  });
}

/**
 * Whether an insert failed because ClickHouse could not be reached, as opposed to refusing
 * these rows (a record that cannot be stored faithfully, RangeError; a server-side error): a
 * refusal is not an outage, and the spill would only hide it.
 */
function isOutage(error: unknown): boolean {
  return !(error instanceof RangeError || error instanceof ClickHouseError);
}

/**
 * An insert that never loses a batch to a ClickHouse outage: ClickHouse first (unless the
 * breaker holds it for down), else the Postgres spill table. Rejects when ClickHouse refused
 * the rows, or when both stores failed; the batching writer then keeps the rows in memory
 * (bounded) and counts what it has to drop.
 */
export function spillingInsert<R extends { id: string }>(
  target: SpillTarget<R>,
  spill: SpillTable<R>,
  breaker: Breaker,
): (records: readonly R[]) => Promise<void> {
  return async (records) => {
    if (records.length === 0) return;
    // This insert runs in waitUntil: a probe it starts is waited for, so it is not cut short.
    const probes: Promise<unknown>[] = [];
    const keep: Background = (probe) => void probes.push(probe);
    try {
      if (breaker.allows(keep)) {
        try {
          await target.insert(records);
          return;
        } catch (error) {
          if (!isOutage(error)) throw error;
          breaker.failed(error);
        }
      }
      await spill.insert(records);
    } finally {
      await Promise.all(probes);
    }
  };
}

export interface DrainOptions {
  batchSize?: number;
  /** Upper bound of batches per run, so one run never monopolises either store. */
  maxBatches?: number;
}

/**
 * Moves spilled rows to ClickHouse, oldest first: copies what ClickHouse does not hold yet,
 * then deletes them from Postgres. A run cut short between the two leaves rows in both, and
 * the next run skips the copies (existingIds), so no row is lost or written twice (as long
 * as one process drains: the console). Throws when a store fails; nothing is deleted then.
 */
export async function drainSpill<R extends { id: string }>(
  spill: SpillTable<R>,
  target: SpillTarget<R>,
  options: DrainOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 1_000;
  const maxBatches = options.maxBatches ?? 20;
  let moved = 0;
  for (let i = 0; i < maxBatches; i++) {
    const rows = await spill.oldest(batchSize);
    if (rows.length === 0) break;
    const ids = rows.map((row) => row.id);
    const present = await target.existingIds(ids);
    await target.insert(rows.filter((row) => !present.has(row.id)));
    await spill.remove(ids);
    moved += rows.length;
    if (rows.length < batchSize) break;
  }
  return moved;
}
