import { loadSettings } from '../db/repos/settings-repo';
import type { QueryDb } from '../db/types';
import { createClickHouseAnalyticsStore, createPostgresAnalyticsStore } from '../logs/analytics/store';
import type { ClickHouseTarget } from '../logs/analytics/target';
import { type AuditPurge, purgeAuditRecords } from './audit';
import type { ClickHouseLogTable, TablePurge } from './clickhouse';
import { retentionCutoff } from './cutoff';
import type { PostgresLogTable, PostgresPurgeOptions } from './postgres';

export interface RetentionDeps {
  /** Any driver: every statement stands alone. */
  db: QueryDb;
  /** The analytics database, when configured. */
  clickhouse?: ClickHouseTarget | null;
}

export interface RetentionResult {
  days: number;
  cutoff: Date;
  /** Rows deleted per Postgres table. */
  postgres: Record<PostgresLogTable, number>;
  /** Null without ClickHouse. */
  clickhouse: Record<ClickHouseLogTable, TablePurge> | null;
  /** Audit records, on audit_retention_days. */
  audit: AuditPurge;
}

/**
 * Removes the request, MCP, access and app log rows older than data_retention_days, and the
 * audit records older than audit_retention_days (both read afresh on each run, so a changed
 * setting applies at the next run). Postgres tables are purged even with ClickHouse
 * configured: they may hold rows from before it was. Safe to run from the console and the
 * cron at once.
 */
export async function runRetention(
  deps: RetentionDeps,
  now: Date,
  options: PostgresPurgeOptions = {},
): Promise<RetentionResult> {
  const settings = await loadSettings(deps.db);
  const days = settings.data_retention_days;
  const cutoff = retentionCutoff(now, days);
  const postgres = await createPostgresAnalyticsStore(deps.db, options).purgeBefore(cutoff);
  const clickhouse = deps.clickhouse
    ? await createClickHouseAnalyticsStore(deps.clickhouse, deps.db).purgeBefore(cutoff)
    : null;
  const audit = await purgeAuditRecords(deps, settings.audit_retention_days, now, options);
  return { days, cutoff, postgres, clickhouse, audit };
}

/** A one-line summary for the job's log: what was removed, nothing when nothing was. */
export function retentionSummary(result: RetentionResult): Record<string, unknown> | null {
  const deleted = Object.values(result.postgres).reduce((a, b) => a + b, 0);
  const tables = Object.entries(result.clickhouse ?? {}).filter(
    ([, t]) => t.dropped.length > 0 || t.deleting,
  );
  const audit = result.audit;
  const auditTouched =
    audit.postgres > 0 || (audit.clickhouse?.dropped.length ?? 0) > 0 || audit.clickhouse?.deleting;
  if (deleted === 0 && tables.length === 0 && !auditTouched) return null;
  return {
    cutoff: result.cutoff.toISOString(),
    postgres_deleted: result.postgres,
    clickhouse: Object.fromEntries(tables),
    ...(auditTouched && {
      audit: {
        cutoff: audit.cutoff.toISOString(),
        postgres_deleted: audit.postgres,
        clickhouse: audit.clickhouse,
      },
    }),
  };
}
