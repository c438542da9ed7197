import type { RequestLogRecord } from './record';

export interface LedgerWriter<R = RequestLogRecord> {
  /** Stores one record; never rejects (failures go to onError). Hand it to waitUntil. */
  write(record: R): Promise<void>;
}

/** Any store that appends records in batches: the request log, the MCP call log. */
export interface BatchInsert<R> {
  insert(records: readonly R[]): Promise<void>;
}

export interface BatchingWriterOptions<R = RequestLogRecord> {
  /** A batch is sent as soon as it holds this many records… */
  maxBatch?: number;
  /** …or this long after its first record arrived. */
  maxDelayMs?: number;
  onError(error: unknown, records: readonly R[]): void;
}

/**
 * One insert per batch instead of one per request: ClickHouse wants few large inserts, and
 * every insert is a round trip the isolate pays for. Each write resolves when the batch
 * holding its record has been stored (or has failed and been reported), so a request's
 * waitUntil keeps the isolate alive exactly until its record is safe. Never rejects.
 */
export function createBatchingLedgerWriter<R = RequestLogRecord>(
  store: BatchInsert<R>,
  options: BatchingWriterOptions<R>,
): LedgerWriter<R> {
  const maxBatch = options.maxBatch ?? 200;
  const maxDelayMs = options.maxDelayMs ?? 200;
  let pending: R[] = [];
  let sent: Promise<void> | null = null;
  let sendNow: (() => void) | null = null;

  const send = async (batch: R[]): Promise<void> => {
    try {
      await store.insert(batch);
    } catch (error) {
      try {
        options.onError(error, batch);
      } catch {
        // A failing error handler must not become an unhandled rejection in waitUntil.
      }
    }
  };

  const startBatch = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, maxDelayMs);
      sendNow = () => {
        clearTimeout(timer);
        resolve();
      };
    }).then(() => {
      const batch = pending;
      pending = [];
      sent = null;
      sendNow = null;
      return send(batch);
    });

  return {
    write(record) {
      pending.push(record);
      sent ??= startBatch();
      const current = sent;
      if (pending.length >= maxBatch) sendNow?.();
      return current;
    },
  };
}
