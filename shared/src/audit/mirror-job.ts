import { type AuditCursor, type AuditLogRow, listAuditAfter } from '../db/repos/audit-search-repo';
import { loadSettings } from '../db/repos/settings-repo';
import type { QueryDb } from '../db/types';
import { errorText, type Logger } from '../logs/server/logger';

/** Where audit records are copied to (ClickHouse: logs/analytics/audit-mirror.ts). */
export interface AuditMirror {
  /** Newest created_at already copied, or null when the copy is empty. */
  resumePoint(): Promise<Date | null>;
  /** Must tolerate receiving a record twice (the pump is at-least-once). */
  write(rows: readonly AuditLogRow[]): Promise<void>;
}

export interface AuditMirrorPumpOptions {
  db: QueryDb;
  mirror: AuditMirror;
  batchSize?: number;
  /** Upper bound of batches per run, so one run never monopolises the pool. */
  maxBatches?: number;
  /** Records younger than this wait for the next run (see listAuditAfter). */
  settleMs?: number;
  /** Default: the audit_mirror_to_clickhouse setting. */
  isEnabled?: () => Promise<boolean>;
}

export interface AuditMirrorPump {
  /** Copies pending records; returns how many. Throws when a store fails (nothing is skipped). */
  runOnce(): Promise<number>;
}

/**
 * Copies audit_log rows, oldest first, from a cursor kept in memory. The cursor starts at
 * the mirror's newest record (so a restart re-sends at most that instant's records, which the
 * mirror collapses) or at the beginning when the mirror is empty (a backfill). Because it
 * reads the table instead of being called by writers, records written by any code path, on
 * any process, are mirrored without those writers knowing about ClickHouse.
 */
export function createAuditMirrorPump(options: AuditMirrorPumpOptions): AuditMirrorPump {
  const batchSize = options.batchSize ?? 500;
  const maxBatches = options.maxBatches ?? 20;
  const settleMs = options.settleMs ?? 2_000;
  const isEnabled =
    options.isEnabled ?? (async () => (await loadSettings(options.db)).audit_mirror_to_clickhouse);
  let cursor: AuditCursor | null | undefined;

  async function startCursor(): Promise<AuditCursor | null> {
    const resume = await options.mirror.resumePoint();
    return resume ? { ts: resume.toISOString(), id: null } : null;
  }

  return {
    async runOnce() {
      if (!(await isEnabled())) return 0;
      if (cursor === undefined) cursor = await startCursor();
      let copied = 0;
      for (let i = 0; i < maxBatches; i++) {
        const batch = await listAuditAfter(options.db, cursor, { limit: batchSize, settleMs });
        if (batch.length === 0) break;
        await options.mirror.write(batch.map((b) => b.row));
        cursor = batch.at(-1)?.cursor ?? cursor;
        copied += batch.length;
        if (batch.length < batchSize) break;
      }
      return copied;
    },
  };
}

export interface AuditMirrorJobOptions extends AuditMirrorPumpOptions {
  intervalMs?: number;
  /** Where failures are reported (the console's logger). */
  logger: Pick<Logger, 'warn'>;
}

export interface AuditMirrorJob {
  /** Waits for a run in progress, then stops. */
  stop(): Promise<void>;
}

const WARN_EVERY_MS = 60_000;

/**
 * Runs the pump every intervalMs (runs never overlap). Failures are logged, at most once a
 * minute while they last, and never thrown: the mirror is best effort, Postgres stays the
 * record. Returns null when no mirror is configured, so callers can start it unconditionally.
 */
export function startAuditMirrorJob(
  options: Omit<AuditMirrorJobOptions, 'mirror'> & { mirror: AuditMirror | null | undefined },
): AuditMirrorJob | null {
  const { mirror } = options;
  if (!mirror) return null;
  const pump = createAuditMirrorPump({ ...options, mirror });
  const intervalMs = options.intervalMs ?? 2_000;
  let lastWarnAt = Number.NEGATIVE_INFINITY;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();

  const tick = async () => {
    try {
      await pump.runOnce();
      lastWarnAt = Number.NEGATIVE_INFINITY;
    } catch (error) {
      if (Date.now() - lastWarnAt >= WARN_EVERY_MS) {
        lastWarnAt = Date.now();
        options.logger.warn('audit mirror failed; will retry', { error: errorText(error) });
      }
    }
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      running = tick().finally(() => {
        if (!stopped) schedule(intervalMs);
      });
    }, delayMs);
  };
  schedule(0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
