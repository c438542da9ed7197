// The console's database spans (console-server/src/telemetry/db-spans.ts) on its node-postgres
// pool (console-server/src/stores/postgres.ts): a query through drizzle and a transaction on a
// lent client are client spans under the request's span, a failing statement is marked failed.
// Real Postgres; spans go to a list.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresPool, type PostgresPool } from '../../console-server/src/stores/postgres';
import { traceDbQueries } from '../../console-server/src/telemetry/db-spans';
import { recordingSpan, type Span, type SpanData } from '../../shared/src/telemetry/span';
import { newSpanId, newTraceId } from '../../shared/src/telemetry/trace-context';
import { freshDatabase } from '../helpers/stores';

let postgres: PostgresPool;
const spans: SpanData[] = [];
let request: Span | undefined;

beforeAll(async () => {
  const url = await freshDatabase('sluice_it_console_db_spans');
  postgres = createPostgresPool(url, 2, 5_000);
  traceDbQueries(postgres.pool, () => request, url);
});

afterAll(async () => {
  await postgres?.pool.end();
});

function startRequest(): Span {
  const context = { traceId: newTraceId(), spanId: newSpanId(), flags: 1, traceState: '' };
  request = recordingSpan(
    { context, parentSpanId: null, name: 'GET /api/x', kind: 'server' },
    (span) => spans.push(span),
    {
      now: () => Date.now(),
    },
  );
  return request;
}

const under = (parent: Span) => spans.filter((span) => span.parentSpanId === parent.context?.spanId);

describe('database spans on the node-postgres pool', () => {
  it('one client span per statement, a query and a transaction alike, named by operation and database', async () => {
    const parent = startRequest();
    await postgres.db.execute(sql`select 1 as one`);
    await postgres.db.transaction(async (tx) => {
      await tx.execute(sql`select 2 as two`);
    });
    const children = under(parent);
    expect(children.map((span) => span.name)).toEqual([
      'SELECT sluice_it_console_db_spans',
      'BEGIN sluice_it_console_db_spans',
      'SELECT sluice_it_console_db_spans',
      'COMMIT sluice_it_console_db_spans',
    ]);
    for (const span of children) {
      expect(span.kind).toBe('client');
      expect(span.attributes['db.system.name']).toBe('postgresql');
      expect(span.endMs).toBeGreaterThanOrEqual(span.startMs);
    }
    expect(children[0]?.attributes['db.query.text']).toBe('select 1 as one');
  });

  it('marks a failing statement’s span failed, and records nothing outside a traced request', async () => {
    const parent = startRequest();
    await expect(postgres.db.execute(sql`select * from no_such_table`)).rejects.toThrow();
    const [failed] = under(parent);
    expect(failed?.status.code).toBe('error');
    expect(failed?.status.message).toMatch(/no_such_table/);
    request = undefined;
    const before = spans.length;
    await postgres.db.execute(sql`select 3 as three`);
    expect(spans.length).toBe(before);
  });
});
