import type { ClickHouseClient } from '@clickhouse/client-web';
import type { AuditMirror } from '../../audit/mirror-job';
import type { AuditLogRow } from '../../db/repos/audit-search-repo';
import { CLICKHOUSE_ROW_FORMAT } from '../../stores/clickhouse';
import { type ChSql, chIdent, chSql } from './clickhouse-sql';

export const AUDIT_MIRROR_TABLE = 'audit_log';

/**
 * The ClickHouse copy of audit_log (18.16-compatible). DateTime has whole seconds on 18.16
 * (no DateTime64), so timestamp_ms keeps the exact instant. ReplacingMergeTree keyed by
 * (timestamp, id) collapses the duplicates an at-least-once copy can produce; queries that
 * must count exactly before merges use FINAL or uniqExact(id).
 */
export function auditMirrorTableDdl(database: string): ChSql {
  return chSql`CREATE TABLE IF NOT EXISTS ${chIdent(database, AUDIT_MIRROR_TABLE)} (
    id String,
    timestamp DateTime('UTC'),
    timestamp_ms UInt64,
    user_id Nullable(String),
    user_email Nullable(String),
    action String,
    resource_type Nullable(String),
    resource_id Nullable(String),
    details String,
    ip_address Nullable(String),
    user_agent Nullable(String)
  ) ENGINE = ReplacingMergeTree() PARTITION BY toYYYYMM(timestamp) ORDER BY (timestamp, id)`;
}

export interface AuditMirrorRow {
  id: string;
  /** Unix seconds: what JSONEachRow accepts for DateTime on 18.16. */
  timestamp: number;
  timestamp_ms: number;
  user_id: string | null;
  user_email: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  /** JSON text; ClickHouse 18.16 has no JSON type. */
  details: string;
  ip_address: string | null;
  user_agent: string | null;
}

export function toAuditMirrorRow(row: AuditLogRow): AuditMirrorRow {
  const ms = row.createdAt.getTime();
  return {
    id: row.id,
    timestamp: Math.floor(ms / 1000),
    timestamp_ms: ms,
    user_id: row.userId,
    user_email: row.userEmail,
    action: row.action,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    details: JSON.stringify(row.details ?? {}),
    ip_address: row.ipAddress,
    user_agent: row.userAgent,
  };
}

export interface ClickHouseAuditMirrorOptions {
  database: string;
  /** Creates the database; it runs before the table is created (see ensureClickHouseDatabase). */
  ensureDatabase?: () => Promise<void>;
}

/** Creates the table on first use (and again after a failed attempt), then appends rows. */
export function createClickHouseAuditMirror(
  client: ClickHouseClient,
  options: ClickHouseAuditMirrorOptions,
): AuditMirror {
  const table = chIdent(options.database, AUDIT_MIRROR_TABLE);
  let ready: Promise<void> | null = null;
  const ensureTable = () => {
    ready ??= (async () => {
      await options.ensureDatabase?.();
      await client.command({ query: auditMirrorTableDdl(options.database).sql });
    })().catch((error: unknown) => {
      ready = null;
      throw error;
    });
    return ready;
  };
  return {
    async resumePoint() {
      await ensureTable();
      const result = await client.query({
        query: chSql`SELECT count() AS n, max(timestamp_ms) AS ms FROM ${table}`.sql,
        format: CLICKHOUSE_ROW_FORMAT,
      });
      // UInt64 arrives as a JSON string on 18.16.
      const [row] = await result.json<{ n: string; ms: string }>();
      return row && Number(row.n) > 0 ? new Date(Number(row.ms)) : null;
    },
    async write(rows) {
      if (rows.length === 0) return;
      await ensureTable();
      await client.insert({
        table: table.sql,
        values: rows.map(toAuditMirrorRow),
        format: CLICKHOUSE_ROW_FORMAT,
      });
    },
  };
}
