import type { ClickHouseClient } from '@clickhouse/client-web';
import { type ChSql, chIdent, chJoin, chSql } from '../analytics/clickhouse-sql';
import {
  type ClickHouseTableOptions,
  chCreatedBetween,
  chWhere,
  clickHouseLogTable,
  instantColumns,
} from '../analytics/clickhouse-table';
import { APP_LOG_TABLE, appLogTableDdl, chContains } from './clickhouse-tables';
import { type AppLogQuery, appLogQuery, checkAppLogRecord } from './query';
import { type AppLogRecord, type AppLogSource, type AppLogStore, LOG_LEVELS, levelName } from './records';

/** A row as 18.16 returns it (select): UInt64 is a JSON string, fields the JSON text. */
interface SelectedAppRow {
  id: string;
  created_at_ms: string | number;
  level: number;
  source: AppLogSource;
  target: string;
  message: string;
  fields: string;
}

const SELECTED_COLUMNS: readonly (keyof SelectedAppRow)[] = [
  'id',
  'created_at_ms',
  'level',
  'source',
  'target',
  'message',
  'fields',
];

function toRow(record: AppLogRecord) {
  const checked = checkAppLogRecord(record);
  return {
    id: checked.id,
    ...instantColumns(checked.createdAt, `app log ${checked.id}`),
    level: LOG_LEVELS[checked.level],
    source: checked.source,
    target: checked.target,
    message: checked.message,
    fields: JSON.stringify(checked.fields),
  };
}

function fromRow(row: SelectedAppRow): AppLogRecord {
  return {
    id: row.id,
    createdAt: new Date(Number(row.created_at_ms)),
    level: levelName(row.level),
    source: row.source,
    target: row.target,
    message: row.message,
    fields: JSON.parse(row.fields) as Record<string, unknown>,
  };
}

function whereOf(query: AppLogQuery): ChSql {
  return chWhere([
    query.level === undefined ? null : chSql`level >= ${LOG_LEVELS[query.level]}`,
    query.target === undefined ? null : chContains(chIdent('target'), query.target),
    query.q === undefined ? null : chContains(chIdent('message'), query.q),
    ...chCreatedBetween(query.from, query.to),
  ]);
}

/** The application log in ClickHouse. */
export function createClickHouseAppLogStore(
  client: ClickHouseClient,
  options: ClickHouseTableOptions,
): AppLogStore {
  const logs = clickHouseLogTable(client, options, APP_LOG_TABLE, appLogTableDdl);
  const columns = chJoin(SELECTED_COLUMNS.map((column) => chIdent(column)));
  return {
    async insert(records) {
      if (records.length === 0) return;
      await logs.insert(records.map(toRow));
    },
    async search(search) {
      const query = appLogQuery(search);
      const { total, rows } = await logs.page<SelectedAppRow>(columns, whereOf(query), query);
      return { total, entries: rows.map(fromRow) };
    },
  };
}
