import type { ClickHouseClient } from '@clickhouse/client-web';
import type { ChRow } from '../analytics/clickhouse-columns';
import { type ChSql, chIdent, chSql } from '../analytics/clickhouse-sql';
import {
  type ClickHouseTableOptions,
  chCreatedBetween,
  clickHouseLogTable,
} from '../analytics/clickhouse-table';
import { appLogSchema, chContains } from './clickhouse-tables';
import { type AppLogQuery, appLogQuery, checkAppLogRecord } from './query';
import { type AppLogStore, LOG_LEVELS } from './records';

function conditionsOf(query: AppLogQuery): (ChSql | null)[] {
  return [
    query.level === undefined ? null : chSql`level >= ${LOG_LEVELS[query.level]}`,
    query.target === undefined ? null : chContains(chIdent('target'), query.target),
    query.q === undefined ? null : chContains(chIdent('message'), query.q),
    ...chCreatedBetween(query.from, query.to),
  ];
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
      const { total, rows } = await logs.page<ChRow>(appLogSchema.selected, conditionsOf(query), query);
      return { total, entries: rows.map((row) => appLogSchema.fromRow(row)) };
    },
  };
}
