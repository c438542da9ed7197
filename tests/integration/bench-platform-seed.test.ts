// The platform bench's seed (dev/bench/platform-seed.ts) on a real, migrated database: the
// bulk rows land where the bench expects them, and every seeded secret is a key the product
// would accept (its shape, and a stored hash equal to the product's hash of it).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keySecret,
  newSeedMeta,
  type PlatformSizes,
  readSeedMeta,
  seededKeyName,
  seedRows,
} from '../../dev/bench/platform-seed';
import { hashApiKey, looksLikeApiKey } from '../../shared/src/auth/api-keys/api-key';
import { freshDatabase } from '../helpers/stores';

const SIZES: PlatformSizes = { users: 6, keys: 30, ownerKeys: 7, models: 4, routesPerModel: 3, tools: 0 };
let url: string;
let client: pg.Client;
const ids = { adminId: '', ownerId: '', providerIds: [] as string[] };
const meta = newSeedMeta(SIZES);

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  return (await client.query(sql, params)).rows[0] as T;
}

beforeAll(async () => {
  url = await freshDatabase('sluice_it_bench_platform_seed');
  client = new pg.Client({ connectionString: url });
  await client.connect();
  // What the console API makes before the bulk rows: the admin, the owner, the providers.
  const user = (email: string, role: string) =>
    one<{ id: string }>(
      `INSERT INTO users (email, display_name, password_hash, role) VALUES ($1, $1, 'argon2-hash', $2) RETURNING id`,
      [email, role],
    );
  ids.adminId = (await user('admin@bench.example', 'admin')).id;
  ids.ownerId = (await user('owner@bench.example', 'user')).id;
  for (const name of ['bench-1', 'bench-2']) {
    const provider = await one<{ id: string }>(
      `INSERT INTO providers (name, display_name, provider_type, base_url, api_key_encrypted)
       VALUES ($1, $1, 'openai', 'http://127.0.0.1:1/v1', 'sealed') RETURNING id`,
      [name],
    );
    ids.providerIds.push(provider.id);
  }
  await seedRows(url, meta, ids);
});

afterAll(async () => {
  await client?.end();
});

describe('the platform bench seed', () => {
  it('holds the asked users and keys: the admin’s first, then the owner’s, the rest one user after another', async () => {
    const counts = await one<Record<string, string>>(
      `SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM api_keys) AS keys,
              (SELECT count(*) FROM api_keys WHERE user_id = $1) AS admin,
              (SELECT count(*) FROM api_keys WHERE user_id = $2) AS owner,
              (SELECT count(DISTINCT user_id) FROM api_keys) AS holders,
              (SELECT count(*) FROM users WHERE password_hash = 'argon2-hash') AS with_password`,
      [ids.adminId, ids.ownerId],
    );
    expect(counts).toEqual({
      users: '6',
      keys: '30',
      admin: '1',
      owner: '7',
      holders: '6',
      with_password: '6',
    });
  });

  it('stores each secret as the product hashes it, under the key’s name and display prefix', async () => {
    for (const [index, owner] of [
      [0, ids.adminId],
      [1, ids.ownerId],
      [7, ids.ownerId],
      [8, null],
      [29, null],
    ] as const) {
      const secret = keySecret(meta.salt, index);
      expect(looksLikeApiKey(secret)).toBe(true);
      const row = await one<{ user_id: string; name: string; prefix: string; status: string } | undefined>(
        'SELECT user_id, name, prefix, status FROM api_keys WHERE key_hash = $1',
        [await hashApiKey(secret)],
      );
      expect(row).toMatchObject({
        name: seededKeyName(index),
        prefix: secret.slice(0, 12),
        status: 'active',
      });
      if (owner) expect(row?.user_id).toBe(owner);
      else expect([ids.adminId, ids.ownerId]).not.toContain(row?.user_id);
    }
    // Another salt makes other secrets: none of them is stored.
    const stranger = await one<{ n: string }>('SELECT count(*) AS n FROM api_keys WHERE key_hash = $1', [
      await hashApiKey(keySecret('another-salt', 8)),
    ]);
    expect(stranger.n).toBe('0');
  });

  it('gives each model its routes in order, spread over the providers', async () => {
    const routes = await client.query<{ name: string; position: number; provider_id: string }>(
      `SELECT models.name, model_routes.position, model_routes.provider_id
       FROM models JOIN model_routes ON model_routes.model_id = models.id ORDER BY models.name, position`,
    );
    expect(routes.rows).toHaveLength(12);
    expect(routes.rows.slice(0, 3).map((r) => [r.name, r.position])).toEqual([
      ['model-0000', 0],
      ['model-0000', 1],
      ['model-0000', 2],
    ]);
    expect(new Set(routes.rows.map((r) => r.provider_id))).toEqual(new Set(ids.providerIds));
  });

  it('marks the seed complete with its sizes and salt, which the next run reads back', async () => {
    expect(await readSeedMeta(url)).toEqual(meta);
    expect(
      await readSeedMeta(url.replace('sluice_it_bench_platform_seed', 'sluice_it_no_such_db')),
    ).toBeNull();
  });
});
