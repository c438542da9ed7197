import type { ClickHouseClient } from '@clickhouse/client-web';
import type { ChRow } from '../analytics/clickhouse-columns';
import { chSql } from '../analytics/clickhouse-sql';
import { type ClickHouseTableOptions, clickHouseLogTable } from '../analytics/clickhouse-table';
import type { SpillTarget } from '../analytics/log-spill';
import { usageAggregateQuery } from './aggregate-query';
import { breakdownQuery } from './breakdown-query';
import { fromUsageBucketRow, type SelectedUsageBucketRow, usageAggregateSql } from './clickhouse-aggregate';
import {
  clientUsageSql,
  countedUsageSql,
  errorCountsSql,
  fromClientRow,
  fromCountedRow,
  fromErrorRow,
  fromLoggedUsage,
  type SelectedClientRow,
  type SelectedCountedRow,
  type SelectedErrorRow,
  type SelectedLoggedUsage,
  usageSinceSql,
} from './clickhouse-breakdowns';
import { requestLogSearchConditions, requestLogSortColumn } from './clickhouse-search';
import { requestLogSchema } from './log-columns';
import { type RequestLogFilter, type RequestLogStore, requestLogPage } from './port';
import type { RequestLogRecord } from './record';
import { requestLogSearchQuery } from './search-filter';

export type ClickHouseRequestLogStoreOptions = ClickHouseTableOptions;

/**
 * The request log in ClickHouse. The table is created on first use (once; again after a failed
 * attempt). Every name is qualified with the database, so one client can serve several.
 */
export function createClickHouseRequestLogStore(
  client: ClickHouseClient,
  options: ClickHouseRequestLogStoreOptions,
): RequestLogStore & SpillTarget<RequestLogRecord> {
  const logs = clickHouseLogTable(client, options, requestLogSchema);
  const columns = requestLogSchema.selected;
  const fromRow = (row: ChRow) => requestLogSchema.fromRow(row);
  return {
    async insert(records) {
      await logs.insert(records.map((record) => requestLogSchema.toRow(record)));
    },
    existingIds: (ids) => logs.existingIds(ids),
    async list(filter: RequestLogFilter = {}) {
      const page = requestLogPage(filter);
      const where = filter.apiKeyId === undefined ? null : chSql`api_key_id = ${filter.apiKeyId}`;
      const { rows } = await logs.page<ChRow>(columns, [where], page);
      return rows.map(fromRow);
    },
    async usageSince(filter) {
      const [row] = await logs.select<SelectedLoggedUsage>(usageSinceSql(logs.table, filter));
      return fromLoggedUsage(row);
    },
    async search(filter) {
      const query = requestLogSearchQuery(filter);
      const conditions = requestLogSearchConditions(query);
      const sortColumn = requestLogSortColumn(query);
      const { total, rows } =
        sortColumn === null
          ? await logs.page<ChRow>(columns, conditions, query)
          : await logs.pageBy<ChRow>(columns, conditions, sortColumn, query);
      return { total, entries: rows.map(fromRow) };
    },
    async aggregate(filter) {
      const query = usageAggregateSql(logs.table, usageAggregateQuery(filter));
      return (await logs.select<SelectedUsageBucketRow>(query)).map(fromUsageBucketRow);
    },
    async clientUsage(filter) {
      const query = clientUsageSql(logs.table, breakdownQuery(filter));
      return (await logs.select<SelectedClientRow>(query)).map(fromClientRow);
    },
    async errorCounts(filter) {
      const query = errorCountsSql(logs.table, breakdownQuery(filter));
      return (await logs.select<SelectedErrorRow>(query)).map(fromErrorRow);
    },
    async countedUsage(query) {
      return (await logs.select<SelectedCountedRow>(countedUsageSql(logs.table, query))).map(fromCountedRow);
    },
  };
}
