import type { ClickHouseClient } from '@clickhouse/client-web';
import type { ChRow } from '../analytics/clickhouse-columns';
import { chIdent, chSql } from '../analytics/clickhouse-sql';
import {
  type ChLogFilter,
  type ClickHouseTableOptions,
  clickHouseLogTable,
} from '../analytics/clickhouse-table';
import { accessLogSchema, chContains } from './clickhouse-tables';
import { type AccessLogQuery, accessLogQuery, checkAccessLogRecord } from './query';
import type { AccessLogStore } from './records';

/** The conditions and range of a checked query (see chWhere and chCreatedBetween). */
function filterOf(query: AccessLogQuery): ChLogFilter {
  const where = [
    query.method === undefined ? null : chSql`method = ${query.method}`,
    query.path === undefined ? null : chContains(chIdent('path'), query.path),
    query.status === undefined
      ? null
      : chSql`status_code >= ${query.status.min} AND status_code <= ${query.status.max}`,
    query.source === undefined ? null : chSql`source = ${query.source}`,
    query.port === undefined ? null : chSql`port = ${query.port}`,
    query.userId === undefined ? null : chSql`user_id = ${query.userId}`,
    query.q === undefined
      ? null
      : chSql`(${chContains(chIdent('path'), query.q)} OR ${chContains(chIdent('user_agent'), query.q)})`,
  ];
  return { where, from: query.from, to: query.to };
}

/** The access log in ClickHouse. */
export function createClickHouseAccessLogStore(
  client: ClickHouseClient,
  options: ClickHouseTableOptions,
): AccessLogStore {
  const logs = clickHouseLogTable(client, options, accessLogSchema);
  return {
    async insert(records) {
      if (records.length === 0) return;
      await logs.insert(records.map((record) => accessLogSchema.toRow(checkAccessLogRecord(record))));
    },
    async search(search) {
      const query = accessLogQuery(search);
      const { total, rows } = await logs.page<ChRow>(accessLogSchema.selected, filterOf(query), query);
      return { total, entries: rows.map((row) => accessLogSchema.fromRow(row)) };
    },
  };
}
