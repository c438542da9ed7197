import type { ClickHouseClient } from '@clickhouse/client-web';
import type { ChRow } from '../analytics/clickhouse-columns';
import { chSql } from '../analytics/clickhouse-sql';
import { type ClickHouseTableOptions, clickHouseLogTable } from '../analytics/clickhouse-table';
import type { SpillTarget } from '../analytics/log-spill';
import { usageAggregateQuery } from './aggregate-query';
import { breakdownQuery } from './breakdown-query';
import {
  fromUsageBucketRow,
  mergeUsageBuckets,
  type SelectedUsageBucketRow,
  usageAggregateSql,
  usageRollupSql,
} from './clickhouse-aggregate';
import {
  clientRollupSql,
  clientUsageSql,
  countedUsageSql,
  errorCountsSql,
  errorRollupSql,
  fromClientRow,
  fromCountedRow,
  fromErrorRow,
  fromLoggedUsage,
  mergeClientRows,
  mergeErrorRows,
  mergeLoggedUsage,
  type SelectedClientRow,
  type SelectedCountedRow,
  type SelectedErrorRow,
  type SelectedLoggedUsage,
  usageSinceRollupSql,
  usageSinceSql,
} from './clickhouse-breakdowns';
import { type RolledUpRange, type RolledUpRead, readRolledUp, requestRollupDdl } from './clickhouse-rollup';
import { requestLogSearchFilter, requestLogSortColumn } from './clickhouse-search';
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
  // The hourly rollup the analytics read (clickhouse-rollup.ts) comes with the table.
  const logs = clickHouseLogTable(client, options, requestLogSchema, requestRollupDdl);
  const columns = requestLogSchema.selected;
  const fromRow = (row: ChRow) => requestLogSchema.fromRow(row);
  const rolledUp = <Row>(range: RolledUpRange, read: RolledUpRead<Row>) =>
    readRolledUp(logs.select, options.database, range, read);
  return {
    async insert(records) {
      await logs.insert(records.map((record) => requestLogSchema.toRow(record)));
    },
    existingIds: (ids) => logs.existingIds(ids),
    async list(filter: RequestLogFilter = {}) {
      const page = requestLogPage(filter);
      const where = filter.apiKeyId === undefined ? null : chSql`api_key_id = ${filter.apiKeyId}`;
      const { rows } = await logs.page<ChRow>(columns, { where: [where] }, page);
      return rows.map(fromRow);
    },
    async usageSince(filter) {
      const who = 'apiKeyId' in filter ? { apiKeyId: filter.apiKeyId } : { userId: filter.userId };
      const [usage] = await rolledUp(
        { from: filter.since, ...who },
        {
          raw: async (time) =>
            (await logs.select<SelectedLoggedUsage>(usageSinceSql(logs.table, filter, time))).map(
              fromLoggedUsage,
            ),
          rolled: async (table, where) =>
            (await logs.select<SelectedLoggedUsage>(usageSinceRollupSql(table, where))).map(fromLoggedUsage),
          merge: mergeLoggedUsage,
        },
      );
      return usage ?? fromLoggedUsage(undefined);
    },
    async search(filter) {
      const query = requestLogSearchQuery(filter);
      const searched = requestLogSearchFilter(query);
      const sortColumn = requestLogSortColumn(query);
      const { total, rows } =
        sortColumn === null
          ? await logs.page<ChRow>(columns, searched, query)
          : await logs.pageBy<ChRow>(columns, searched, sortColumn, query);
      return { total, entries: rows.map(fromRow) };
    },
    async aggregate(filter) {
      const query = usageAggregateQuery(filter);
      return rolledUp(query, {
        raw: async (time) =>
          (await logs.select<SelectedUsageBucketRow>(usageAggregateSql(logs.table, query, time))).map(
            fromUsageBucketRow,
          ),
        rolled: async (table, where) =>
          (await logs.select<SelectedUsageBucketRow>(usageRollupSql(table, query, where))).map(
            fromUsageBucketRow,
          ),
        merge: mergeUsageBuckets,
      });
    },
    async clientUsage(filter) {
      const query = breakdownQuery(filter);
      return rolledUp(query, {
        raw: async (time) =>
          (await logs.select<SelectedClientRow>(clientUsageSql(logs.table, query, time))).map(fromClientRow),
        rolled: async (table, where) =>
          (await logs.select<SelectedClientRow>(clientRollupSql(table, query, where))).map(fromClientRow),
        merge: mergeClientRows,
      });
    },
    async errorCounts(filter) {
      const query = breakdownQuery(filter);
      return rolledUp(query, {
        raw: async (time) =>
          (await logs.select<SelectedErrorRow>(errorCountsSql(logs.table, query, time))).map(fromErrorRow),
        rolled: async (table, where) =>
          (await logs.select<SelectedErrorRow>(errorRollupSql(table, query, where))).map(fromErrorRow),
        merge: mergeErrorRows,
      });
    },
    async countedUsage(query) {
      return (await logs.select<SelectedCountedRow>(countedUsageSql(logs.table, query))).map(fromCountedRow);
    },
  };
}
