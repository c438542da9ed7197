import { defineConfig } from 'vitest/config';

/**
 * Six projects: unit (pure, no services), integration (real Postgres/Redis/ClickHouse
 * through the real drivers and the store bridge), embedded (the Redis-port contract suites
 * again, over the in-memory stand-in of `npm start`), direct (the suites the console's client
 * takes again, over its RESP connection straight to Redis), e2e (the stack started as `npm start`
 * does), ui (the web UI in a real browser against a stack of its own, so it shares no state with e2e).
 */
export default defineConfig({
  test: {
    reporters: ['default', './tests/setup/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/src/**/*.test.ts',
            'gateway-worker/src/**/*.test.ts',
            'console-server/src/**/*.test.ts',
            'self-host/**/*.test.ts',
            'dev/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/setup/integration-global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'embedded',
          // The Redis-port contract suites over the embedded stand-in (tests/setup/embedded-global.ts).
          include: [
            'tests/integration/limits-engine.test.ts',
            'tests/integration/limits-admission.test.ts',
            'tests/integration/limits-sliding-window.test.ts',
            'tests/integration/lua-scripts.test.ts',
            'tests/integration/redis-port.test.ts',
          ],
          globalSetup: ['tests/setup/embedded-global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'direct',
          // The suites on the Upstash client, over the console's RESP connection (tests/setup/direct-global.ts).
          include: [
            'tests/integration/limits-engine.test.ts',
            'tests/integration/limits-sliding-window.test.ts',
            'tests/integration/lua-scripts.test.ts',
            'tests/integration/redis-port.test.ts',
          ],
          globalSetup: ['tests/setup/direct-global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: ['tests/e2e/ui-*.test.ts'],
          globalSetup: ['tests/setup/e2e-global.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'ui',
          include: ['tests/e2e/ui-*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
