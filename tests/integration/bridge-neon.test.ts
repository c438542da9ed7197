// The store bridge's Neon HTTP endpoint (the gateway's Postgres), driven by the official
// @neondatabase/serverless driver against a real Postgres and an embedded PGlite, which the
// console's node-postgres pool reaches at the same time straight through its socket server.
// Nothing is mocked.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { NeonDbError, neon, neonConfig } from '@neondatabase/serverless';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresPool } from '../../console-server/src/stores/postgres';
import { type PgliteServer, servePglite } from '../../dev/embedded/pglite-server';
import { createNeonHttpHandler } from '../../self-host/bridge/neon-http';
import { freePort } from '../../self-host/process/ports';
import { PG_HOST, PG_PORT, pgUrl } from '../helpers/env';

const DATABASE = 'sluice_sidecar_neon_test';
/** Made-up hosts: the sidecar ignores them, the test uses them to pick which sidecar to hit. */
const PG_ALIAS = 'pg.sidecar.test';
const PGLITE_ALIAS = 'pglite.sidecar.test';
const PG_URL = `postgres://postgres@${PG_ALIAS}/${DATABASE}`;
const PGLITE_URL = `postgres://postgres@${PGLITE_ALIAS}/postgres`;

interface TestSidecar {
  port: number;
  close(): Promise<void>;
}

const sidecarPorts = new Map<string, number>();

function sidecarPort(host: string): number {
  const port = sidecarPorts.get(host);
  if (port === undefined) throw new Error(`no test sidecar for ${host}`);
  return port;
}

neonConfig.fetchEndpoint = (host) => `http://127.0.0.1:${sidecarPort(host)}/sql`;

/** A plain node:http server wired the way self-host/bridge/server.ts wires the handler. */
async function startTestSidecar(target: { host: string; port: number }): Promise<TestSidecar> {
  const http = createNeonHttpHandler({ target });
  const server = createServer((req, res) => {
    if (req.url?.split('?')[0] === '/sql') void http.handle(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await http.close();
    },
  };
}

async function adminQuery(database: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl(database) });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

let pgSidecar: TestSidecar;

beforeAll(async () => {
  await adminQuery(
    'postgres',
    `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`,
    `CREATE DATABASE ${DATABASE}`,
  );
  await adminQuery(DATABASE, 'create table items (id serial primary key, name text unique not null)');
  pgSidecar = await startTestSidecar({ host: PG_HOST, port: PG_PORT });
  sidecarPorts.set(PG_ALIAS, pgSidecar.port);
}, 60_000);

afterAll(async () => {
  await pgSidecar?.close();
  await adminQuery('postgres', `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
}, 60_000);

describe('Neon HTTP endpoint (neon())', () => {
  const sql = neon(PG_URL);

  it('round-trips parameters of many types as raw text the driver parses', async () => {
    const text = `it's "quoted" \\ ünïcødé ✓ 🚀`;
    const when = new Date('2024-02-29T12:34:56.789Z');
    const bytes = Buffer.from([0, 1, 2, 0x7f, 0xfe, 0xff]);
    const doc = { a: 1, nested: { list: ['x', null] }, quote: `it's` };
    const tags = ['plain', 'with,comma', 'with "quote"', 'back\\slash', null];
    const rows =
      await sql`select ${text}::text as text, ${42}::int as int, ${9007199254740993n}::bigint as big,
      ${'12345.6789'}::numeric as num, ${true}::boolean as yes, ${null}::text as nothing,
      ${when}::timestamptz as at, ${doc}::jsonb as doc, ${tags}::text[] as tags, ${bytes} as bin`;
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      text,
      int: 42,
      big: '9007199254740993',
      num: '12345.6789',
      yes: true,
      nothing: null,
      at: when,
      doc,
      tags,
    });
    // The driver's bytea parser may hand back its bundled Buffer polyfill; compare bytes.
    expect(Buffer.from(row.bin as Uint8Array).toString('hex')).toBe(bytes.toString('hex'));
  });

  it('honours fullResults and arrayMode', async () => {
    const full = await sql.query('select $1::int + 1 as n, $2::text as t', [1, 'x'], { fullResults: true });
    expect(full).toMatchObject({ command: 'SELECT', rowCount: 1, rows: [{ n: 2, t: 'x' }] });
    expect(full.fields.map((f) => [f.name, f.dataTypeID, f.format])).toEqual([
      ['n', 23, 'text'],
      ['t', 25, 'text'],
    ]);
    const arrays = neon(PG_URL, { arrayMode: true });
    expect(await arrays`select 1::int as a, ${'b'}::text as b`).toEqual([[1, 'b']]);
    const both = await sql.query('select 7::int as n', [], { arrayMode: true, fullResults: true });
    expect(both).toMatchObject({ rowAsArray: true, rows: [[7]], command: 'SELECT' });
    const inserted = await sql.query(`insert into items (name) values ('full-1'), ('full-2')`, [], {
      fullResults: true,
    });
    expect(inserted).toMatchObject({ command: 'INSERT', rowCount: 2, rows: [] });
  });

  it('commits sql.transaction([...]) as one unit', async () => {
    const [inserted, counted] = await sql.transaction([
      sql`insert into items (name) values (${'tx-a'}), (${'tx-b'}) returning name`,
      sql`select count(*)::int as n from items where name like 'tx-%'`,
    ]);
    expect(inserted).toEqual([{ name: 'tx-a' }, { name: 'tx-b' }]);
    expect(counted).toEqual([{ n: 2 }]);
  });

  it('rolls a failing transaction back and reports the SQLSTATE', async () => {
    const failing = sql.transaction([
      sql`insert into items (name) values (${'rolled-back'})`,
      sql`insert into items (name) values (${'tx-a'})`,
    ]);
    await expect(failing).rejects.toMatchObject({ name: 'NeonDbError', code: '23505' });
    expect(await sql`select count(*)::int as n from items where name = 'rolled-back'`).toEqual([{ n: 0 }]);
  });

  it('applies the requested isolation level, read-only and deferrable modes', async () => {
    const [settings] = await sql.transaction(
      (tx) => [
        tx`select current_setting('transaction_isolation') as iso,
          current_setting('transaction_read_only') as ro, current_setting('transaction_deferrable') as def`,
      ],
      { isolationLevel: 'Serializable', readOnly: true, deferrable: true },
    );
    expect(settings).toEqual([{ iso: 'serializable', ro: 'on', def: 'on' }]);
    const write = sql.transaction([sql`insert into items (name) values ('ro')`], { readOnly: true });
    await expect(write).rejects.toMatchObject({ code: '25006' });
  });

  it('surfaces Postgres errors as NeonDbError with Neon’s fields', async () => {
    const error = await sql`insert into items (name) values (${'tx-a'})`.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({
      code: '23505',
      severity: 'ERROR',
      constraint: 'items_name_key',
      table: 'items',
      schema: 'public',
      detail: expect.stringContaining('tx-a'),
    });
    await expect(sql.query('selec 1')).rejects.toMatchObject({ code: '42601', position: '1' });
    // One statement per query, as on Neon (extended protocol).
    await expect(sql.query('select 1; select 2')).rejects.toMatchObject({ code: '42601' });
  });

  it('answers malformed requests with 4xx and a JSON message', async () => {
    const url = `http://127.0.0.1:${pgSidecar.port}/sql`;
    const headers = { 'Neon-Connection-String': PG_URL };
    const notJson = await fetch(url, { method: 'POST', headers, body: 'not json' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ message: 'request body is not valid JSON' });
    const noHeader = await fetch(url, { method: 'POST', body: JSON.stringify({ query: 'select 1' }) });
    expect(noHeader.status).toBe(400);
    expect(await noHeader.json()).toMatchObject({
      message: expect.stringContaining('Neon-Connection-String'),
    });
    const huge = await fetch(url, { method: 'POST', headers, body: 'x'.repeat(11 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    await huge.body?.cancel();
  });
});

describe('against PGlite (the embedded store, dev/embedded/pglite-server.ts)', () => {
  let db: PGlite;
  let socketServer: PgliteServer;
  let sidecar: TestSidecar;
  /** The socket server's own URL: where the console's pool connects. */
  let directUrl: string;

  beforeAll(async () => {
    db = await PGlite.create();
    const port = await freePort();
    directUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    socketServer = await servePglite(db, '127.0.0.1', port);
    sidecar = await startTestSidecar({ host: '127.0.0.1', port });
    sidecarPorts.set(PGLITE_ALIAS, sidecar.port);
  }, 60_000);

  afterAll(async () => {
    await sidecar?.close();
    await socketServer?.close();
    await db?.close();
  }, 60_000);

  it('serves neon() queries and transactions', async () => {
    const sql = neon(PGLITE_URL);
    expect(await sql`select ${'hi ✓'}::text as t, ${2}::int + 1 as n`).toEqual([{ t: 'hi ✓', n: 3 }]);
    const [, rows] = await sql.transaction([
      sql`create table notes (body text not null)`,
      sql`insert into notes values (${'a'}), (${'b'}) returning body`,
    ]);
    expect(rows).toEqual([{ body: 'a' }, { body: 'b' }]);
    await expect(sql`insert into notes values (${null})`).rejects.toMatchObject({ code: '23502' });
  });

  it('serves the console’s pool (node-postgres, straight to the socket): queries and a transaction', async () => {
    const { pool } = createPostgresPool(directUrl, 2);
    try {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query('select $1::text as via, count(*)::int as n from notes', ['pg']);
        await client.query('COMMIT');
        expect(rows).toEqual([{ via: 'pg', n: 2 }]);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it('keeps concurrent clients apart: large parameterised batches, transactions and plain reads interleave safely', async () => {
    // PGlite has one session. Each client's Parse/Bind/Execute/Sync must run as one turn, or
    // another client's Parse replaces the unnamed statement under it (pglite-socket 0.2.17 did
    // exactly that: "unnamed prepared statement does not exist" under load). The console's pool
    // and the gateway's HTTP statements (through the bridge) at once, as on `npm start`.
    const { pool } = createPostgresPool(directUrl, 8);
    const sql = neon(PGLITE_URL);
    try {
      await pool.query('create table batches (client int not null, row int not null, body text not null)');
      const body = 'x'.repeat(2_000); // each batch is ~100 KB: several TCP chunks per message
      const batch = async (clientNo: number) => {
        const values = Array.from({ length: 50 }, (_, row) => [clientNo, row, body]);
        const params = values.flat();
        const placeholders = values.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}, $${3 * i + 3})`).join(', ');
        if (clientNo % 3 === 0) {
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            await client.query(`insert into batches values ${placeholders}`, params);
            await client.query('COMMIT');
          } finally {
            client.release();
          }
        } else {
          await pool.query(`insert into batches values ${placeholders}`, params);
        }
        const [{ n }] = (await sql`select count(*)::int as n from batches where client = ${clientNo}`) as [
          { n: number },
        ];
        return n;
      };
      const counts = await Promise.all(Array.from({ length: 24 }, (_, clientNo) => batch(clientNo)));
      expect(counts).toEqual(Array.from({ length: 24 }, () => 50));
      const { rows } = await pool.query(
        'select count(*)::int as n, count(distinct (client, row))::int as pairs from batches where body = $1',
        [body],
      );
      expect(rows).toEqual([{ n: 24 * 50, pairs: 24 * 50 }]);
    } finally {
      await pool.end();
    }
  });
});
