import type { RedisPort } from '../stores/redis-port';
import type { SettingValues } from './definitions';

/**
 * Settings as hot paths read them (the gateway on every request): a copy kept in the isolate,
 * reloaded when it is older than ttlMs, and dropped early when the Redis counter
 * SETTINGS_VERSION_KEY moves. Every settings change INCRs that counter after its commit, so
 * each isolate sees the change on its next version check (versionCheckMs) instead of waiting
 * out the TTL. Redis being down only falls back to the TTL; the database being down keeps
 * serving the last good copy. Runtime-neutral: no timers, the clock is injectable.
 */
export const SETTINGS_VERSION_KEY = 'sluice:settings:version';
export const DEFAULT_SETTINGS_TTL_MS = 5_000;
export const DEFAULT_VERSION_CHECK_MS = 1_000;

export interface SettingsReaderOptions {
  load: () => Promise<SettingValues>;
  /** Null: no cross-isolate invalidation, changes show up after ttlMs. */
  redis: Pick<RedisPort, 'get'> | null;
  /** Longest a loaded copy is served without reloading. */
  ttlMs?: number;
  /** Least time between two reads of the version key while the copy is fresh. */
  versionCheckMs?: number;
  now?: () => number;
  /** Told about store failures that were absorbed (stale copy served). */
  onError?: (error: unknown) => void;
}

export interface SettingsReader {
  get(): Promise<SettingValues>;
  /** Forgets the copy, so the next get() loads. */
  invalidate(): void;
}

interface Cached {
  values: SettingValues;
  /** Version key as read just before loading; null when the key did not exist. */
  version: string | null;
  expiresAt: number;
  checkedAt: number;
}

/** Increments the version after a committed change; readers compare it on their next check. */
export async function bumpSettingsVersion(redis: Pick<RedisPort, 'incr'>): Promise<number> {
  return redis.incr(SETTINGS_VERSION_KEY);
}

export function createSettingsReader(options: SettingsReaderOptions): SettingsReader {
  return new CachedSettingsReader(options);
}

class CachedSettingsReader implements SettingsReader {
  readonly #options: SettingsReaderOptions;
  readonly #ttlMs: number;
  readonly #checkMs: number;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  #cached: Cached | null = null;
  #loading: Promise<SettingValues> | null = null;
  #checking: Promise<SettingValues> | null = null;

  constructor(options: SettingsReaderOptions) {
    this.#options = options;
    this.#ttlMs = options.ttlMs ?? DEFAULT_SETTINGS_TTL_MS;
    this.#checkMs = Math.max(0, options.versionCheckMs ?? DEFAULT_VERSION_CHECK_MS);
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => {});
  }

  get(): Promise<SettingValues> {
    // A load in flight is at least as fresh as anything cached.
    if (this.#loading) return this.#loading;
    const cached = this.#cached;
    const at = this.#now();
    if (!cached || at >= cached.expiresAt) return this.#reload();
    if (this.#options.redis && at - cached.checkedAt >= this.#checkMs) {
      this.#checking ??= this.#check(cached).finally(() => {
        this.#checking = null;
      });
      return this.#checking;
    }
    return Promise.resolve(cached.values);
  }

  invalidate(): void {
    this.#cached = null;
  }

  #reload(): Promise<SettingValues> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = null;
    });
    return this.#loading;
  }

  async #load(): Promise<SettingValues> {
    // Read before loading: a change committed in between only causes one extra reload later.
    const version = await this.#readVersion();
    try {
      const values = await this.#options.load();
      const at = this.#now();
      this.#cached = { values, version: version ?? null, expiresAt: at + this.#ttlMs, checkedAt: at };
      return values;
    } catch (error) {
      const stale = this.#cached;
      if (!stale) throw error;
      this.#onError(error);
      // Serve the last good copy; try the database again after one check interval.
      stale.expiresAt = this.#now() + Math.max(this.#checkMs, 1);
      return stale.values;
    }
  }

  async #check(cached: Cached): Promise<SettingValues> {
    const version = await this.#readVersion();
    cached.checkedAt = this.#now();
    if (version === undefined || version === cached.version) return cached.values;
    return this.#reload();
  }

  /** undefined: the key could not be read, which counts as "unchanged". */
  async #readVersion(): Promise<string | null | undefined> {
    const redis = this.#options.redis;
    if (!redis) return null;
    try {
      const value = await redis.get<string | number>(SETTINGS_VERSION_KEY);
      return value === null || value === undefined ? null : String(value);
    } catch (error) {
      this.#onError(error);
      return undefined;
    }
  }
}
