import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client-web';

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
