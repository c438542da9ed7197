import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client-web';
import { expect, vi } from 'vitest';
import { type ChSql, chJoin, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { chQuery } from '../../shared/src/logs/analytics/clickhouse-table';

/**
 * A store's ClickHouse client as a test watches it: every SELECT is logged to system.query_log
 * under an id handed to `onQuery`, with the settings `extra()` returns at that moment (e.g.
 * force_primary_key, so a query that cannot use the table's key fails instead of reading it
 * all). Everything else passes through.
 */
export function observedClient(
  client: ClickHouseClient,
  onQuery: (queryId: string) => void,
  extra: () => Record<string, number> = () => ({}),
): ClickHouseClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'query') {
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (params: Parameters<ClickHouseClient['query']>[0]) => {
        const query_id = params.query_id ?? randomUUID();
        onQuery(query_id);
        return target.query({
          ...params,
          query_id,
          clickhouse_settings: { ...params.clickhouse_settings, log_queries: 1, ...extra() },
        } as typeof params);
      };
    },
  }) as ClickHouseClient;
}

/**
 * The system.query_log rows (`columns` of each) of the queries `call` sent, once ClickHouse has
 * logged them all: a query's log row is queued once its answer is sent, which may be after the
 * client read it, so the log is flushed and read until every id is there. `sent` is the list
 * the observed client appends to; it is emptied first.
 */
export async function loggedQueries<T>(
  ch: ClickHouseClient,
  sent: string[],
  columns: ChSql,
  call: () => Promise<unknown>,
): Promise<T[]> {
  sent.length = 0;
  await call();
  const ids = chJoin(sent.map((id) => chSql`${id}`));
  return vi.waitFor(
    async () => {
      await ch.command({ query: 'SYSTEM FLUSH LOGS' });
      const logged = await chQuery<T>(
        ch,
        chSql`SELECT ${columns} FROM system.query_log WHERE type = 2 AND query_id IN (${ids})`,
      );
      expect(logged).toHaveLength(sent.length);
      return logged;
    },
    { timeout: 5_000, interval: 100 },
  );
}
