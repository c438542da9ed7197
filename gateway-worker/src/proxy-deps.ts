import { createSecretBox, type SecretBox } from '@sluice/shared/auth/secret-box';
import type { StoreEnv } from '@sluice/shared/config/env';
import { loadSettings } from '@sluice/shared/db/repos/settings-repo';
import type { Db } from '@sluice/shared/db/types';
import { createBatchingLedgerWriter } from '@sluice/shared/ledger/batching-writer';
import { createRequestLogStore } from '@sluice/shared/ledger/index';
import { createRouteCaps } from '@sluice/shared/limits/route-caps';
import { createSlidingWindowLimiter } from '@sluice/shared/limits/sliding-window';
import { googleBedrockProviders } from '@sluice/shared/providers/registry-google-bedrock';
import { openAiAnthropicAdapters } from '@sluice/shared/providers/registry-openai-anthropic';
import { createResponseCache } from '@sluice/shared/proxy/response-cache';
import type { ProxyDeps } from '@sluice/shared/proxy/types';
import { resolveModelRoutes } from '@sluice/shared/routing/resolve';
import { createCachedResolver } from '@sluice/shared/routing/route-cache';
import { createSettingsReader } from '@sluice/shared/settings/settings-cache';
import { createClickHouse, ensureClickHouseDatabase } from '@sluice/shared/stores/clickhouse';
import { wireFormats } from '@sluice/shared/wire/index';
import type { Redis } from '@upstash/redis';

function warn(message: string, fields: Record<string, unknown> = {}): void {
  console.warn(JSON.stringify({ level: 'WARN', target: 'proxy', message, ...fields }));
}

/** The model proxy's ports, built once per isolate next to the other gateway deps. */
export function buildProxyDeps(config: StoreEnv, db: Db, redis: Redis): ProxyDeps {
  let secretBox: Promise<SecretBox> | undefined;
  const openedKeys = new Map<string, Promise<string>>();
  const settings = createSettingsReader({
    load: () => loadSettings(db),
    redis,
    onError: (e) => warn('settings', { error: String(e) }),
  });
  const clickhouseConfig = config.CLICKHOUSE_URL
    ? {
        url: config.CLICKHOUSE_URL,
        username: config.CLICKHOUSE_USER,
        password: config.CLICKHOUSE_PASSWORD,
        database: config.CLICKHOUSE_DATABASE,
      }
    : null;
  // The request log goes to ClickHouse when it is configured, else to Postgres.
  const clickhouse = clickhouseConfig && {
    client: createClickHouse(clickhouseConfig),
    database: clickhouseConfig.database,
    ensureDatabase: () => ensureClickHouseDatabase(clickhouseConfig),
  };
  const ledger = createBatchingLedgerWriter(createRequestLogStore({ db, clickhouse }), {
    onError: (error, records) =>
      warn('request log write failed', { error: String(error), lost: records.length }),
  });
  return {
    fetch: (input, init) => fetch(input, init),
    formats: wireFormats,
    providers: { ...openAiAnthropicAdapters, ...googleBedrockProviders },
    resolveModel: createCachedResolver({ resolve: (name) => resolveModelRoutes(db, name), redis }),
    revealProviderKey: (sealed) => {
      // Opened once per isolate: a rotated provider key is a new sealed value, so never stale.
      let opened = openedKeys.get(sealed);
      if (!opened) {
        secretBox ??= createSecretBox(config.SLUICE_ENCRYPTION_KEY);
        opened = secretBox.then((box) => box.decrypt(sealed));
        if (openedKeys.size >= 1000) openedKeys.clear();
        openedKeys.set(sealed, opened);
        opened.catch(() => openedKeys.delete(sealed));
      }
      return opened;
    },
    routeCaps: createRouteCaps(createSlidingWindowLimiter(redis)),
    cache: createResponseCache(redis),
    writeLog: (record) => ledger.write(record),
    settings: async () => {
      const values = await settings.get();
      return {
        cacheTtlSeconds: values.cache_ttl_seconds,
        upstreamTimeoutMs: values.upstream_timeout_seconds * 1000,
      };
    },
    now: () => Date.now(),
    warn,
  };
}
