// Pages of the logs in ClickHouse 18.16 when a range's bounds cut within a second. The total and
// a sorted page's floor are read over two spans (the whole seconds inside the range on the key
// column alone, and the cut seconds to the millisecond: chCreatedSpans), so these check that the
// spans neither lose nor double a row: rows sit on the first and last milliseconds of the seconds
// around each bound, the rows just outside a bound carry the highest values (a floor taken from
// them would drop the page's rows), and every page of every range must equal a full sort of the
// exact matches.
import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { createClickHouseMcpLogStore } from '../../shared/src/logs/mcp/clickhouse-store';
import { createClickHouseRequestLogStore } from '../../shared/src/logs/requests/clickhouse-store';
import type { RequestLogRecord } from '../../shared/src/logs/requests/record';
import type { McpLogRecord } from '../../shared/src/mcp/ports';
import { createClickHouse, ensureClickHouseDatabase } from '../../shared/src/stores/clickhouse';
import { CLICKHOUSE_URL } from '../helpers/env';
import { requestLogRecord } from '../helpers/request-log-record';

const DATABASE = 'sluice_it_ranked_page';
/** A whole second; rows lie in the seconds from S - 1 s to S + 6 s. */
const S = Date.UTC(2025, 5, 1, 12, 0, 0);
const OFFSETS_MS = [0, 1, 499, 998, 999];

const instants = Array.from({ length: 8 }, (_, k) => OFFSETS_MS.map((ms) => S + (k - 1) * 1000 + ms)).flat();

/** The ranges asked: cut, aligned, within one second, one-sided, none. */
const RANGES: { name: string; from?: number; to?: number }[] = [
  { name: 'both bounds cut a second', from: S + 499, to: S + 5_000 + 499 },
  { name: 'bounds on whole seconds', from: S, to: S + 5_999 },
  { name: 'from .001 to .998 of one second', from: S + 1, to: S + 998 },
  { name: 'one millisecond', from: S + 3_999, to: S + 3_999 },
  { name: 'upper bound at .000', from: S, to: S + 4_000 },
  { name: 'from only, cut', from: S + 2_001 },
  { name: 'to only, cut', to: S + 1_998 },
  { name: 'no range' },
];

/** Values that put the rows just outside each cut bound on top, with ties and NULL costs. */
function rankedValue(at: number, i: number): number {
  const outside = RANGES.some(
    (range) => (range.from !== undefined && at < range.from) || (range.to !== undefined && at > range.to),
  );
  return (outside && (at % 1000 === 998 || at % 1000 === 1) ? 1_000 : 100) + (i % 7);
}

const requests: RequestLogRecord[] = instants.map((at, i) =>
  requestLogRecord({
    createdAt: new Date(at),
    latencyMs: rankedValue(at, i),
    costUsd: i % 5 === 0 ? null : rankedValue(at, i) / 1000,
    unpriced: i % 5 === 0,
  }),
);
const calls: McpLogRecord[] = instants.map((at, i) => ({
  id: randomUUID(),
  createdAt: new Date(at),
  userId: null,
  apiKeyId: null,
  serverId: '7c000000-0000-4000-8000-000000000051',
  serverName: 'ranked',
  toolName: 'echo',
  status: 'success',
  durationMs: rankedValue(at, i),
  error: null,
}));

let ch: ClickHouseClient;
let sent: string[] = [];
let stores: {
  requests: ReturnType<typeof createClickHouseRequestLogStore>;
  mcp: ReturnType<typeof createClickHouseMcpLogStore>;
};

/** The stores' client, with the text of every SELECT recorded. */
function recording(client: ClickHouseClient): ClickHouseClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'query') return typeof value === 'function' ? value.bind(target) : value;
      return (params: Parameters<ClickHouseClient['query']>[0]) => {
        sent.push(params.query);
        return target.query(params);
      };
    },
  }) as ClickHouseClient;
}

beforeAll(async () => {
  ch = createClickHouse({ url: CLICKHOUSE_URL, database: 'default', requestTimeoutMs: 10_000 });
  await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(DATABASE)}`.sql });
  const options = {
    database: DATABASE,
    ensureDatabase: () => ensureClickHouseDatabase({ url: CLICKHOUSE_URL, database: DATABASE }),
    timeoutMs: 10_000,
  };
  stores = {
    requests: createClickHouseRequestLogStore(recording(ch), options),
    mcp: createClickHouseMcpLogStore(recording(ch), options),
  };
  await stores.requests.insert(requests);
  await stores.mcp.insert(calls);
});

afterAll(async () => {
  await ch?.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(DATABASE)}`.sql });
  await ch?.close();
});

/** A full sort of the exact matches: descending, NULLs last, ties by id descending. */
function expectedIds<T extends { id: string; createdAt: Date }>(
  rows: readonly T[],
  range: { from?: number; to?: number },
  value: (row: T) => number | null,
): string[] {
  const at = (row: T) => row.createdAt.getTime();
  return rows
    .filter(
      (row) =>
        (range.from === undefined || at(row) >= range.from) &&
        (range.to === undefined || at(row) <= range.to),
    )
    .sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      if (x !== y) return x === null ? 1 : y === null ? -1 : y - x;
      return a.id < b.id ? 1 : -1;
    })
    .map((row) => row.id);
}

const PAGES = [
  [0, 3],
  [3, 3],
  [5, 4],
  [0, 100],
  [12, 7],
  [38, 5],
  [45, 5],
] as const;

describe('a sorted page of a range whose bounds cut within a second', () => {
  it.each(RANGES)('$name: every page and the total match a full sort of the exact matches', async (range) => {
    const window = {
      from: range.from === undefined ? undefined : new Date(range.from),
      to: range.to === undefined ? undefined : new Date(range.to),
    };
    const sorts = [
      ['latency_ms', (r: RequestLogRecord) => r.latencyMs],
      ['cost_usd', (r: RequestLogRecord) => r.costUsd],
    ] as const;
    for (const [sortBy, value] of sorts) {
      const all = expectedIds(requests, range, value);
      for (const [offset, limit] of PAGES) {
        const page = await stores.requests.search({ ...window, sortBy, offset, limit });
        expect({ sortBy, offset, total: page.total }).toEqual({ sortBy, offset, total: all.length });
        expect(page.entries.map((r) => r.id)).toEqual(all.slice(offset, offset + limit));
      }
      // Newest first over the same spans: the total, and the order by instant.
      const newest = await stores.requests.search({ ...window, limit: 100 });
      expect(newest.total).toBe(all.length);
    }
    const mcpAll = expectedIds(calls, range, (call) => call.durationMs);
    for (const [offset, limit] of PAGES) {
      const page = await stores.mcp.list({ ...window, sortBy: 'duration_ms', offset, limit });
      expect(page.total).toBe(mcpAll.length);
      expect(page.entries.map((call) => call.id)).toEqual(mcpAll.slice(offset, offset + limit));
    }
  });

  it('reads created_at_ms for the total and the floor only in the seconds a bound cuts', async () => {
    sent = [];
    const cut = RANGES[0] as { from: number; to: number };
    await stores.requests.search({
      from: new Date(cut.from),
      to: new Date(cut.to),
      sortBy: 'latency_ms',
      limit: 3,
    });
    const floor = sent.filter((query) => query.includes('AS bound'));
    const total = sent.filter((query) => query.includes('AS total'));
    expect(floor).toHaveLength(1);
    expect(floor[0]).not.toContain('created_at_ms');
    expect(total).toHaveLength(1);
    const spans = (total[0] ?? '').split('UNION ALL');
    expect(spans).toHaveLength(2);
    expect(spans[0]).not.toContain('created_at_ms');
    expect(spans[1]).toContain(
      `created_at IN (${Math.floor(cut.from / 1000)}, ${Math.floor(cut.to / 1000)})`,
    );
    // Bounds on whole seconds cut nothing: no span reads the milliseconds at all.
    sent = [];
    await stores.requests.search({
      from: new Date(S),
      to: new Date(S + 5_999),
      sortBy: 'latency_ms',
      limit: 3,
    });
    const aligned = sent.filter((query) => query.includes('AS bound') || query.includes('AS total'));
    expect(aligned).toHaveLength(2);
    for (const query of aligned) expect(query).not.toContain('created_at_ms');
  });
});
