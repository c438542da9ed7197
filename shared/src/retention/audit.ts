import { auditLog } from '../db/schema';
import type { QueryDb } from '../db/types';
import { AUDIT_MIRROR_TABLE } from '../logs/analytics/audit-mirror';
import type { ClickHouseTarget } from '../logs/analytics/target';
import { purgeClickHouseTable, type TablePurge } from './clickhouse';
import { retentionCutoff } from './cutoff';
import { type PostgresPurgeOptions, purgePostgresTable } from './postgres';

export interface AuditPurge {
  days: number;
  cutoff: Date;
  /** Records deleted from audit_log (Postgres, the record). */
  postgres: number;
  /** The ClickHouse copy (audit mirror); null without ClickHouse. */
  clickhouse: TablePurge | null;
}

/**
 * Audit records older than audit_retention_days go from Postgres and from the ClickHouse
 * copy alike, so the console's audit search (either store) never shows what the record no
 * longer holds. The mirror copies by cursor over committed rows, so deleting old rows never
 * makes it copy one again.
 */
export async function purgeAuditRecords(
  deps: { db: QueryDb; clickhouse?: ClickHouseTarget | null },
  days: number,
  now: Date,
  options: PostgresPurgeOptions = {},
): Promise<AuditPurge> {
  const cutoff = retentionCutoff(now, days);
  const postgres = await purgePostgresTable(deps.db, auditLog, cutoff, options);
  let clickhouse: TablePurge | null = null;
  if (deps.clickhouse) {
    const { client, database } = deps.clickhouse;
    await deps.clickhouse.ensureDatabase?.();
    clickhouse = await purgeClickHouseTable(client, database, AUDIT_MIRROR_TABLE, cutoff, 'timestamp');
  }
  return { days, cutoff, postgres, clickhouse };
}
