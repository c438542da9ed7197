import { createClickHouseRequestLogStore } from '../../shared/src/logs/requests/clickhouse-store';
import type { RequestLogStore } from '../../shared/src/logs/requests/port';
import { createClickHouse } from '../../shared/src/stores/clickhouse';
import { CLICKHOUSE_URL } from './env';

/** The shared e2e stack's request log (tests/setup/e2e-global.ts), read straight from ClickHouse. */
export function e2eRequestLogStore(): RequestLogStore {
  const database = 'sluice_e2e';
  return createClickHouseRequestLogStore(createClickHouse({ url: CLICKHOUSE_URL, database }), { database });
}
