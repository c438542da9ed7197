/**
 * The platform bench's rows, written straight into Postgres (INSERT … SELECT … FROM
 * generate_series, inside one transaction) into a database the stack has migrated: users, API
 * keys, models and their routes. What needs the product's own code (the admin, the owner's
 * password, providers with sealed credentials, the MCP server and its discovered tools) is made
 * through the console API beforehand (platform-setup.ts); this adds the bulk beside it.
 *
 * Keys are real keys: secret i is `sluice-` and 43 hex digits of SHA-256(salt:i), stored as the
 * SHA-256 of the secret, as the product stores a key it generated. The salt is drawn at seed
 * time and kept with the sizes in the database's comment, so a reused seed's keys are known to
 * the bench and to nobody reading this code.
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseName } from './bench-stores';

export interface PlatformSizes {
  /** Every user, the admin and the owner included. */
  users: number;
  /** Every key: the admin's one, the owner's and the rest spread over the other users. */
  keys: number;
  ownerKeys: number;
  models: number;
  routesPerModel: number;
  tools: number;
}

export interface SeedMeta {
  sizes: PlatformSizes;
  salt: string;
}

export interface SeedIds {
  adminId: string;
  ownerId: string;
  providerIds: string[];
}

/** Key index 0 is the admin's, 1..ownerKeys the owner's, the others the seeded users'. */
export const ADMIN_KEY_INDEX = 0;
export const firstOtherKey = (sizes: PlatformSizes) => sizes.ownerKeys + 1;
export const seededModelName = (index: number) => `model-${String(index).padStart(4, '0')}`;
export const seededKeyName = (index: number) => `key-${String(index).padStart(6, '0')}`;
export const SEEDED_USER_DOMAIN = 'seed.bench.example';

/** A seeded key's secret; platform-seed's SQL derives the same. */
export function keySecret(salt: string, index: number): string {
  return `sluice-${createHash('sha256').update(`${salt}:${index}`).digest('hex').slice(0, 43)}`;
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const adminUrl = (databaseUrl: string) => {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
};

/** The seed's sizes and salt, or null when the database is missing or was never fully seeded. */
export async function readSeedMeta(databaseUrl: string): Promise<SeedMeta | null> {
  const name = databaseName(databaseUrl);
  const comment = await withClient(adminUrl(databaseUrl), async (client) => {
    const result = await client.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [name],
    );
    return result.rows[0]?.comment ?? null;
  });
  if (!comment?.startsWith('{')) return null;
  return JSON.parse(comment) as SeedMeta;
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  await withClient(adminUrl(databaseUrl), (client) =>
    client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  );
}

export function newSeedMeta(sizes: PlatformSizes): SeedMeta {
  return { sizes, salt: randomBytes(16).toString('hex') };
}

/** SQL for secret i (an integer expression) of salt $1, as keySecret spells it. */
const secretSql = (index: string) =>
  `'sluice-' || substr(encode(sha256(convert_to($1::text || ':' || ${index}, 'UTF8')), 'hex'), 1, 43)`;

/**
 * Adds the bulk rows, then ANALYZE (plans as on a database that grew by use) and, last, the
 * comment that marks the seed complete.
 */
export async function seedRows(databaseUrl: string, meta: SeedMeta, ids: SeedIds): Promise<void> {
  const { sizes, salt } = meta;
  const others = sizes.users - 2;
  await withClient(databaseUrl, async (client) => {
    await client.query('BEGIN');
    // The seeded users sign in with the owner's password (one argon2 hash, copied).
    await client.query(
      `INSERT INTO users (email, display_name, password_hash, role, created_at, updated_at)
       SELECT format('user-%s@${SEEDED_USER_DOMAIN}', lpad(n::text, 5, '0')), format('Seeded user %s', n),
              (SELECT password_hash FROM users WHERE id = $1), 'user',
              now() - make_interval(mins => $2::int - n), now() - make_interval(mins => $2::int - n)
       FROM generate_series(0, $2::int - 1) AS n`,
      [ids.ownerId, others],
    );
    await client.query(
      `WITH seeded AS (
         SELECT id, row_number() OVER (ORDER BY email) - 1 AS n FROM users WHERE email LIKE '%@${SEEDED_USER_DOMAIN}'
       ), secrets AS (
         SELECT i, ${secretSql('i')} AS secret FROM generate_series(0, $2::int - 1) AS i
       )
       INSERT INTO api_keys (user_id, name, key_hash, prefix, created_at, updated_at)
       SELECT CASE WHEN i = 0 THEN $3::uuid WHEN i <= $4::int THEN $5::uuid ELSE seeded.id END,
              format('key-%s', lpad(i::text, 6, '0')), encode(sha256(convert_to(secret, 'UTF8')), 'hex'),
              substr(secret, 1, 12), now() - make_interval(secs => $2::int - i), now() - make_interval(secs => $2::int - i)
       FROM secrets LEFT JOIN seeded ON seeded.n = (i - $4::int - 1) % $6::int`,
      [salt, sizes.keys, ids.adminId, sizes.ownerKeys, ids.ownerId, others],
    );
    await client.query(
      `INSERT INTO models (name, input_price_per_mtok, output_price_per_mtok, max_output_tokens)
       SELECT format('model-%s', lpad(m::text, 4, '0')), 0.15 + m % 7, 0.6 + m % 11, 4096
       FROM generate_series(0, $1::int - 1) AS m`,
      [sizes.models],
    );
    await client.query(
      `INSERT INTO model_routes (model_id, provider_id, upstream_model, position)
       SELECT models.id, ($2::uuid[])[1 + (m.n + r) % cardinality($2::uuid[])], 'gpt-4o-mini', r
       FROM (SELECT id, name FROM models WHERE name LIKE 'model-%') AS models
       CROSS JOIN LATERAL (SELECT substr(models.name, 7)::int AS n) AS m
       CROSS JOIN generate_series(0, $1::int - 1) AS r`,
      [sizes.routesPerModel, ids.providerIds],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE');
    const name = databaseName(databaseUrl);
    // COMMENT takes a literal only; the JSON holds no quote (sizes and a hex salt).
    await client.query(`COMMENT ON DATABASE ${name} IS '${JSON.stringify(meta)}'`);
  });
}

export interface SeededCounts {
  users: number;
  keys: number;
  ownerKeys: number;
  models: number;
  routes: number;
  mcpServers: number;
  tools: number;
}

/** What the database holds now (keys made by earlier runs included). */
export async function countSeeded(databaseUrl: string, ownerId: string): Promise<SeededCounts> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<Record<keyof SeededCounts, string>>(
      `SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM api_keys) AS keys,
              (SELECT count(*) FROM api_keys WHERE user_id = $1) AS "ownerKeys",
              (SELECT count(*) FROM models) AS models, (SELECT count(*) FROM model_routes) AS routes,
              (SELECT count(*) FROM mcp_servers) AS "mcpServers", (SELECT count(*) FROM mcp_tools) AS tools`,
      [ownerId],
    );
    const row = result.rows[0]!;
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as SeededCounts;
  });
}
