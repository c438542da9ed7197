/** Where the real services live in tests and CI; override through the environment. */
export const PG_HOST = process.env.TEST_PG_HOST ?? '127.0.0.1';
export const PG_PORT = Number(process.env.TEST_PG_PORT ?? 5432);
export const INTEGRATION_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
export const CLICKHOUSE_URL = process.env.TEST_CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';
/** Redis of the e2e stack (`npm start` as the e2e suite runs it). */
export const E2E_REDIS_URL = process.env.TEST_E2E_REDIS_URL ?? 'redis://127.0.0.1:6379/2';
/** Redis of the `npm run serve` e2e test: database 5 of the e2e Redis server unless set. */
export const SERVE_REDIS_URL = process.env.TEST_SERVE_REDIS_URL ?? withRedisDatabase(E2E_REDIS_URL, 5);

export const TEST_SECRETS = {
  SLUICE_JWT_SECRET: 'integration-jwt-secret-0123456789abcdef',
  SLUICE_ENCRYPTION_KEY: '11'.repeat(32),
};

export function pgUrl(database: string): string {
  return `postgres://postgres@${PG_HOST}:${PG_PORT}/${database}`;
}

/** The same Redis server, another database. */
export function withRedisDatabase(redisUrl: string, database: number): string {
  const url = new URL(redisUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
