import { inject } from 'vitest';
import { applyMigrations } from '../../self-host/stores/migrations';
import { recreateDatabase } from './databases';
import { CLICKHOUSE_URL, INTEGRATION_REDIS_URL, pgUrl, TEST_SECRETS } from './env';

/** A freshly created and migrated database of its own for one test file. */
export async function freshDatabase(name: string): Promise<string> {
  const url = pgUrl(name);
  await recreateDatabase(url);
  await applyMigrations(url);
  return url;
}

/**
 * The environment an app would get from `npm start`, pointed at the test sidecar; the console
 * takes REDIS_URL (the sidecar's own Redis) over the sidecar's Upstash endpoint, as it does there.
 */
export function appEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    ...inject('sidecarEnv'),
    REDIS_URL: INTEGRATION_REDIS_URL,
    ...TEST_SECRETS,
    CLICKHOUSE_URL,
    CLICKHOUSE_DATABASE: 'sluice_it',
    SLUICE_STORE_TIMEOUT_MS: '1500',
    ...extra,
  };
}
