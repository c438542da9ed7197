import type { ClickHouseClient } from '@clickhouse/client-web';
import type { ChRow } from '../analytics/clickhouse-columns';
import { chIdent, chSql } from '../analytics/clickhouse-sql';
import {
  type ChLogFilter,
  type ClickHouseTableOptions,
  clickHouseLogTable,
} from '../analytics/clickhouse-table';
import { appLogSchema, chContains } from './clickhouse-tables';
import { type AppLogQuery, appLogQuery, checkAppLogRecord } from './query';
import { type AppLogStore, LOG_LEVELS } from './records';

function filterOf(query: AppLogQuery): ChLogFilter {
  const where = [
    query.level === undefined ? null : chSql`level >= ${LOG_LEVELS[query.level]}`,
    query.target === undefined ? null : chContains(chIdent('target'), query.target),
    query.q === undefined ? null : chContains(chIdent('message'), query.q),
  ];
  return { where, from: query.from, to: query.to };
}

/** The application log in ClickHouse. */
export function createClickHouseAppLogStore(
  client: ClickHouseClient,
  options: ClickHouseTableOptions,
): AppLogStore {
  const logs = clickHouseLogTable(client, options, appLogSchema);
  return {
    async insert(records) {
      if (records.length === 0) return;
      await logs.insert(records.map((record) => appLogSchema.toRow(checkAppLogRecord(record))));
    },
    async search(search) {
      const query = appLogQuery(search);
      const { total, rows } = await logs.page<ChRow>(appLogSchema.selected, filterOf(query), query);
      return { total, entries: rows.map((row) => appLogSchema.fromRow(row)) };
    },
  };
}
