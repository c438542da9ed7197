import type { ClickHouseClient } from '@clickhouse/client-web';
import { type ChSql, chIdent, chJoin, chSql } from '../analytics/clickhouse-sql';
import {
  type ClickHouseTableOptions,
  chCreatedBetween,
  chWhere,
  clickHouseLogTable,
  instantColumns,
} from '../analytics/clickhouse-table';
import { ACCESS_LOG_TABLE, accessLogTableDdl, chContains } from './clickhouse-tables';
import { type AccessLogQuery, accessLogQuery, checkAccessLogRecord } from './query';
import type { AccessLogPort, AccessLogRecord, AccessLogStore } from './records';

/** A row as 18.16 returns it (select): UInt64 is a JSON string. */
interface SelectedAccessRow {
  id: string;
  created_at_ms: string | number;
  port: number;
  method: string;
  path: string;
  status_code: number;
  user_id: string | null;
  latency_ms: number;
  ip: string | null;
  user_agent: string | null;
}

const SELECTED_COLUMNS: readonly (keyof SelectedAccessRow)[] = [
  'id',
  'created_at_ms',
  'port',
  'method',
  'path',
  'status_code',
  'user_id',
  'latency_ms',
  'ip',
  'user_agent',
];

function toRow(record: AccessLogRecord) {
  const checked = checkAccessLogRecord(record);
  return {
    id: checked.id,
    ...instantColumns(checked.createdAt, `access log ${checked.id}`),
    port: checked.port,
    method: checked.method,
    path: checked.path,
    status_code: checked.statusCode,
    user_id: checked.userId,
    latency_ms: checked.latencyMs,
    ip: checked.ip,
    user_agent: checked.userAgent,
  };
}

function fromRow(row: SelectedAccessRow): AccessLogRecord {
  return {
    id: row.id,
    createdAt: new Date(Number(row.created_at_ms)),
    port: row.port as AccessLogPort,
    method: row.method,
    path: row.path,
    statusCode: row.status_code,
    userId: row.user_id,
    latencyMs: row.latency_ms,
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

/** WHERE for a checked query; milliseconds are compared on created_at_ms, never on DateTime. */
function whereOf(query: AccessLogQuery): ChSql {
  return chWhere([
    query.method === undefined ? null : chSql`method = ${query.method}`,
    query.path === undefined ? null : chContains(chIdent('path'), query.path),
    query.statusCode === undefined ? null : chSql`status_code = ${query.statusCode}`,
    query.port === undefined ? null : chSql`port = ${query.port}`,
    query.userId === undefined ? null : chSql`user_id = ${query.userId}`,
    query.q === undefined
      ? null
      : chSql`(${chContains(chIdent('path'), query.q)} OR ${chContains(chIdent('user_agent'), query.q)})`,
    ...chCreatedBetween(query.from, query.to),
  ]);
}

/** The access log in ClickHouse. */
export function createClickHouseAccessLogStore(
  client: ClickHouseClient,
  options: ClickHouseTableOptions,
): AccessLogStore {
  const logs = clickHouseLogTable(client, options, ACCESS_LOG_TABLE, accessLogTableDdl);
  const columns = chJoin(SELECTED_COLUMNS.map((column) => chIdent(column)));
  return {
    async insert(records) {
      if (records.length === 0) return;
      await logs.insert(records.map(toRow));
    },
    async search(search) {
      const query = accessLogQuery(search);
      const { total, rows } = await logs.page<SelectedAccessRow>(columns, whereOf(query), query);
      return { total, entries: rows.map(fromRow) };
    },
  };
}
