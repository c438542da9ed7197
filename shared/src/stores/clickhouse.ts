import { type ClickHouseClient, createClient } from '@clickhouse/client-web';
import { chIdent, chSql } from '../logs/analytics/clickhouse-sql';
import { probeLatency } from './probe';

/*
 * ClickHouse 18.16 through @clickhouse/client-web 1.x — findings from running the client
 * against a real 18.16.1 server:
 *
 * - The client sends no ClickHouse settings of its own (only query_id, plus `database` when it
 *   is not "default", plus Basic auth). 18.16 rejects any setting it does not know with
 *   "Unknown setting", so nothing here adds settings; do not add newer ones per query either.
 * - Query parameters do not exist: `query_params` becomes `param_x=...`, rejected as
 *   "Unknown setting param_x". Values go through chSql (logs/analytics/clickhouse-sql.ts).
 * - `client.insert()` defaults to JSONCompactEachRow, which 18.16 rejects ("Unknown format").
 *   Always pass `format: CLICKHOUSE_ROW_FORMAT` (JSONEachRow), which it accepts for insert
 *   and select.
 * - Formats 18.16 knows among the client's list: JSON, JSONCompact, JSONEachRow, CSV,
 *   CSVWithNames, TabSeparated(Raw|WithNames|WithNamesAndTypes). Rejected: every
 *   *Strings*, JSONCompact*EachRow*, JSONEachRowWithProgress, JSONObjectEachRow,
 *   JSONColumnsWithMetadata, CSVWithNamesAndTypes, CustomSeparated*, Parquet.
 * - UInt64/Int64 come back as JSON strings (output_format_json_quote_64bit_integers is on by
 *   default in 18.16); we keep that to avoid precision loss above 2^53.
 * - 18.16 error text ("Code: 60, e.displayText() = DB::Exception: ...") lacks the "(TYPE)"
 *   suffix the client parses, so failures surface as a plain Error with the server text as
 *   message, not as ClickHouseError with a code.
 * - No DateTime64 (toDateTime64 is an unknown function) and no boolean literals.
 * - Response gzip (enable_http_compression) does work on 18.16; it is pinned off so no setting
 *   is ever sent implicitly and the runtime's fetch never has to decode.
 */

export interface ClickHouseConfig {
  url: string;
  username?: string;
  password?: string;
  database?: string;
  requestTimeoutMs?: number;
}

/** The row format to use with 18.16 for both `insert` and `query`. */
export const CLICKHOUSE_ROW_FORMAT = 'JSONEachRow' as const;

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_PING_TIMEOUT_MS = 2_000;

/** A fetch-based client that works in Workers and Node, configured for ClickHouse 18.16. */
export function createClickHouse(config: ClickHouseConfig): ClickHouseClient {
  return createClient({
    url: config.url,
    username: config.username ?? 'default',
    password: config.password ?? '',
    database: config.database ?? 'default',
    request_timeout: config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    compression: { request: false, response: false },
    // fetch's `keepalive` means "may outlive the page" (bodies capped at 64 KiB in browsers),
    // not connection reuse; the runtime pools connections on its own.
    keep_alive: { enabled: false },
    clickhouse_settings: {},
  });
}

/**
 * Health check. The web client pings with `SELECT 'ping'` (checks credentials too) and reports
 * failure instead of throwing; it ignores abort signals, so the deadline is enforced here
 * and a hung request ends at the client's request_timeout. Never throws.
 */
export async function pingClickHouse(
  client: ClickHouseClient,
  timeoutMs = DEFAULT_PING_TIMEOUT_MS,
): Promise<{ ok: boolean; latencyMs: number | null }> {
  const latencyMs = await probeLatency(async () => {
    const result = await client.ping();
    if (!result.success) throw result.error;
  }, timeoutMs);
  return { ok: latencyMs !== null, latencyMs };
}

/**
 * Creates the configured database if missing. Connects to "default" for this, because the
 * client sends `database=<name>` with every request and 18.16 fails those with code 81 while
 * the database does not exist yet.
 */
export async function ensureClickHouseDatabase(
  config: ClickHouseConfig & { database: string },
): Promise<void> {
  const client = createClickHouse({ ...config, database: 'default' });
  try {
    await client.command({ query: chSql`CREATE DATABASE IF NOT EXISTS ${chIdent(config.database)}`.sql });
  } finally {
    await client.close();
  }
}
