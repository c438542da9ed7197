// The audit log (docs/analytics-and-logs.md, Audit): GET /api/audit/logs with q, from, to, limit
// (1..1000) and offset; the shape of its records; the ClickHouse mirror of audit_log.
import type { ClickHouseClient } from '@clickhouse/client-web';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditMirrorPump, startAuditMirrorJob } from '../../shared/src/audit/mirror-job';
import { auditSearchWhere } from '../../shared/src/db/repos/audit-search-repo';
import { auditLog } from '../../shared/src/db/schema';
import { createClickHouseAuditMirror } from '../../shared/src/logs/analytics/audit-mirror';
import { chIdent, chSql } from '../../shared/src/logs/analytics/clickhouse-sql';
import { CLICKHOUSE_ROW_FORMAT, createClickHouse } from '../../shared/src/stores/clickhouse';
import { type CheckedApi, type CheckedCallOptions, checkedApi, signUp } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { CLICKHOUSE_URL } from '../helpers/env';
import { appEnv, freshDatabase } from '../helpers/stores';

const CH_DATABASE = 'sluice_it_audit';
const IP = '203.0.113.80';
const SECRET = 'audit-test-oidc-secret-Kf93';
const admin = { email: 'audit-admin@example.com', display_name: 'Audrey', password: 'audit-admin-pw' };
const grace = { email: 'grace.hopper@navy.example', display_name: 'Grace', password: 'grace-password' };

let h: ConsoleHarness;
let ch: ClickHouseClient;
let checked: CheckedApi;
let adminToken: string;
let userToken: string;
// Seeded records for paging and date ranges: 30 in March 2020, some sharing one instant.
const SEEDED = 30;

const api = (method: string, path: string, options?: CheckedCallOptions) =>
  checked.call(method, path, options);

type Query = Record<string, string | number>;
const logs = (query: Query, token = adminToken) =>
  api(
    'GET',
    `/api/audit/logs?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
    {
      token,
    },
  );

async function seedOldRecords(): Promise<void> {
  const base = Date.UTC(2020, 2, 1);
  const rows = Array.from({ length: SEEDED }, (_, i) => ({
    // Every third record shares its instant with the next one, to exercise the id tiebreak.
    createdAt: new Date(base + Math.floor(i / 2) * 3_600_000),
    action: 'test.paging',
    resourceType: 'widget',
    resourceId: `w-${i}`,
    userEmail: 'seed@example.com',
    details: { n: i },
  }));
  await h.deps.db.insert(auditLog).values(rows);
}

beforeAll(async () => {
  ch = createClickHouse({ url: CLICKHOUSE_URL, database: 'default' });
  await ch.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(CH_DATABASE)}`.sql });
  const env = appEnv(await freshDatabase('sluice_it_audit'), { CLICKHOUSE_DATABASE: CH_DATABASE });
  h = await consoleHarness(env);
  checked = await checkedApi(h, { ip: IP });
  adminToken = (await api('POST', '/api/setup/initialize', { body: { admin } })).body.access_token;
  userToken = (await signUp(checked, grace)).token;
  await api('POST', '/api/auth/login', { body: { email: grace.email, password: 'wrong-password' } });
  await api('PATCH', '/api/admin/settings', {
    body: { settings: { site_name: 'Audit Co', oidc_client_secret: SECRET } },
    token: adminToken,
  });
  await seedOldRecords();
});
afterAll(async () => {
  await ch?.command({ query: chSql`DROP DATABASE IF EXISTS ${chIdent(CH_DATABASE)}`.sql });
  await ch?.close();
  await h?.close();
});

describe('GET /api/audit/logs', () => {
  it('pages newest first with the total and the documented entry shape', async () => {
    const res = await logs({});
    expect(res.status).toBe(200);
    const [{ n }] = (await h.deps.db.select({ n: sql<string>`count(*)` }).from(auditLog)) as [{ n: string }];
    expect(res.body).toMatchObject({ total: Number(n), offset: 0, limit: 50 });
    expect(Object.keys(res.body.entries[0]).sort()).toEqual(
      [
        'action',
        'details',
        'id',
        'ip_address',
        'resource_id',
        'resource_type',
        'timestamp',
        'user_agent',
        'user_email',
        'user_id',
      ].sort(),
    );
    const stamps = res.body.entries.map((e: { timestamp: string }) => e.timestamp);
    expect(stamps).toEqual([...stamps].sort().reverse());
    const login = res.body.entries.find((e: { action: string }) => e.action === 'auth.login_failed');
    expect(login).toMatchObject({
      user_email: grace.email,
      ip_address: IP,
      user_agent: 'vitest',
      details: { method: 'password' },
    });
  });

  it('finds records by full text: an email, a partial email, an action, a word of details', async () => {
    const byEmail = await logs({ q: grace.email });
    expect(byEmail.body.total).toBeGreaterThanOrEqual(3);
    for (const e of byEmail.body.entries) expect(JSON.stringify(e)).toContain(grace.email);
    const partial = await logs({ q: 'GRACE.hop' });
    expect(partial.body.total).toBe(byEmail.body.total);
    const failed = await logs({ q: 'auth.login_failed' });
    expect(failed.body.entries.map((e: { action: string }) => e.action)).toEqual(['auth.login_failed']);
    const logins = await logs({ q: 'auth.login' });
    expect(new Set(logins.body.entries.map((e: { action: string }) => e.action))).toEqual(
      new Set(['auth.login', 'auth.login_failed']),
    );
    const settingsChange = await logs({ q: 'site_name' });
    expect(settingsChange.body.entries.map((e: { action: string }) => e.action)).toEqual(['settings.update']);
    expect((await logs({ q: 'no-such-word-anywhere' })).body).toMatchObject({ total: 0, entries: [] });
  });

  it('treats tsquery operators and quotes in q as text', async () => {
    for (const q of [
      "'); drop table audit_log; --",
      'a & b | !c:* (',
      '\\',
      "o'brien\\'",
      '   ',
      '@',
      '中文 😀',
    ]) {
      const res = await logs({ q });
      expect(res.status, q).toBe(200);
    }
    expect((await logs({ q: '   ' })).body.total).toBe((await logs({})).body.total);
  });

  it('filters by an inclusive date range, and refuses bad dates and from > to', async () => {
    const march = await logs({ q: 'test.paging', from: '2020-03-01', to: '2020-03-01T04:00:00Z' });
    expect(march.body.total).toBe(10);
    for (const e of march.body.entries)
      expect(e.timestamp >= '2020-03-01' && e.timestamp <= '2020-03-01T04:00:00.000Z').toBe(true);
    expect((await logs({ from: '2020-03-01T01:00:00+01:00', to: '2020-03-01T00:00:00Z' })).body.total).toBe(
      2,
    );
    const recent = await logs({ from: new Date(Date.now() - 3_600_000).toISOString() });
    expect(recent.body.entries.some((e: { action: string }) => e.action === 'test.paging')).toBe(false);
    const bads: Query[] = [
      { from: 'yesterday' },
      { to: '2020-13-01' },
      { from: '2020-03-02', to: '2020-03-01' },
    ];
    for (const bad of bads) {
      const res = await logs(bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
  });

  it('pages with limit and offset through a stable order', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < SEEDED + 7; offset += 7) {
      const page = await logs({ q: 'test.paging', limit: 7, offset });
      expect(page.body).toMatchObject({ total: SEEDED, limit: 7, offset });
      seen.push(...page.body.entries.map((e: { id: string }) => e.id));
    }
    expect(seen).toHaveLength(SEEDED);
    expect(new Set(seen).size).toBe(SEEDED);
    const all = await logs({ q: 'test.paging', limit: 1000 });
    expect(all.body.entries.map((e: { id: string }) => e.id)).toEqual(seen);
  });

  it('validates limit (1..1000) and offset', async () => {
    expect((await logs({ limit: 1000 })).status).toBe(200);
    const bads: Query[] = [{ limit: 1001 }, { limit: 0 }, { limit: 'ten' }, { limit: 2.5 }, { offset: -1 }];
    for (const query of bads) {
      expect((await logs(query)).status, JSON.stringify(query)).toBe(422);
    }
  });

  it('is for admins only', async () => {
    expect((await logs({}, '')).status).toBe(401);
    expect((await logs({}, 'nope')).status).toBe(401);
    const res = await logs({}, userToken);
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe('permission_error');
  });

  it('never shows a secret setting, and uses the GIN index for q', async () => {
    expect((await logs({ limit: 1000 })).text).not.toContain(SECRET);
    const plan = await h.deps.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const query = tx
        .select()
        .from(auditLog)
        .where(auditSearchWhere({ q: 'grace.hop' }));
      return tx.execute(sql`explain ${query}`);
    });
    expect(JSON.stringify((plan as { rows: unknown[] }).rows)).toContain('audit_log_search_idx');
  });
});

describe('ClickHouse mirror', () => {
  async function mirrored(): Promise<Array<{ id: string; action: string; details: string; ts: string }>> {
    const result = await ch.query({
      query:
        chSql`SELECT id, action, details, toString(timestamp_ms) AS ts FROM ${chIdent(CH_DATABASE, 'audit_log')} FINAL ORDER BY timestamp_ms, id`
          .sql,
      format: CLICKHOUSE_ROW_FORMAT,
    });
    return result.json();
  }

  async function pgIds(): Promise<string[]> {
    const rows = await h.deps.db.select({ id: auditLog.id }).from(auditLog);
    return rows.map((r) => r.id).sort();
  }

  it('copies every committed record (secrets stay redacted) through the background job', async () => {
    const warnings: string[] = [];
    const job = startAuditMirrorJob({
      db: h.deps.db,
      mirror: h.deps.auditMirror,
      intervalMs: 100,
      settleMs: 200,
      logger: { warn: (m) => warnings.push(m) },
    });
    expect(job).not.toBeNull();
    try {
      const expected = await pgIds();
      await expect
        .poll(async () => (await mirrored().catch(() => [])).map((r) => r.id).sort(), {
          timeout: 15_000,
          interval: 200,
        })
        .toEqual(expected);
    } finally {
      await job?.stop();
    }
    const rows = await mirrored();
    const update = rows.find((r) => r.action === 'settings.update');
    expect(JSON.parse(update?.details ?? '{}')).toMatchObject({
      changes: { site_name: { new: 'Audit Co' } },
    });
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    const seeded = rows.filter((r) => r.action === 'test.paging');
    expect(seeded[0]?.ts).toBe(String(Date.UTC(2020, 2, 1)));
    expect(warnings).toEqual([]);
  });

  it('resumes after a restart without re-sending, and respects audit_mirror_to_clickhouse', async () => {
    const mirror = h.deps.auditMirror!;
    const pump = () => createAuditMirrorPump({ db: h.deps.db, mirror, settleMs: 0 });
    const restarted = pump();
    expect(await restarted.runOnce()).toBeLessThanOrEqual(2);
    await api('PATCH', '/api/admin/settings', {
      body: { settings: { audit_mirror_to_clickhouse: false } },
      token: adminToken,
    });
    expect(await restarted.runOnce()).toBe(0);
    await api('PATCH', '/api/admin/settings', {
      body: { settings: { audit_mirror_to_clickhouse: true } },
      token: adminToken,
    });
    expect(await restarted.runOnce()).toBe(2);
    expect((await mirrored()).map((r) => r.id).sort()).toEqual(await pgIds());
  });

  it('survives a ClickHouse outage: the job logs and keeps going, requests are unaffected', async () => {
    const down = createClickHouseAuditMirror(
      createClickHouse({ url: 'http://127.0.0.1:1', requestTimeoutMs: 500 }),
      {
        database: CH_DATABASE,
      },
    );
    await expect(createAuditMirrorPump({ db: h.deps.db, mirror: down }).runOnce()).rejects.toThrow();
    const warnings: string[] = [];
    const job = startAuditMirrorJob({
      db: h.deps.db,
      mirror: down,
      intervalMs: 50,
      logger: { warn: (m) => warnings.push(m) },
    });
    await expect.poll(() => warnings.length, { timeout: 5_000 }).toBe(1);
    const res = await api('PATCH', '/api/admin/settings', {
      body: { settings: { site_name: 'Still Up' } },
      token: adminToken,
    });
    expect(res.status).toBe(200);
    await job?.stop();
    expect(warnings).toEqual(['audit mirror failed; will retry']);
    expect(startAuditMirrorJob({ db: h.deps.db, mirror: null, logger: h.deps.logger })).toBeNull();
  });
});

describe('OpenAPI', () => {
  it('documents every response seen above', async () => {
    expect(checked.problems).toEqual([]);
    expect(checked.conformance.exercisedOperations()).toContain('GET /api/audit/logs');
    const [row] = await h.deps.db.select().from(auditLog).where(eq(auditLog.action, 'setup.initialize'));
    expect(row?.ipAddress).toBe(IP);
  });
});
