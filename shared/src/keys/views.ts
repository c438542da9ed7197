import type { ApiKeyRow, ExpiringKeyRow } from '../db/repos/api-keys-repo';

/**
 * Response shapes of the API-key endpoints (docs/keys.md), field for field. None of them
 * carries the hash; only the create and rotate shapes carry the secret, passed in by the
 * caller that just generated it.
 */

const DAY_MS = 86_400_000;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The leading fields of both the list and the update shape, in this order. */
interface KeySettingsView {
  id: string;
  name: string;
  prefix: string;
  /** Null means every model (see docs/keys.md: "all models" is null, never []). */
  allowed_models: string[] | null;
  rate_limit_rpm: number | null;
  expires_at: string | null;
}

function toKeySettingsView(row: ApiKeyRow): KeySettingsView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    allowed_models: row.allowedModels,
    rate_limit_rpm: row.rateLimitRpm,
    expires_at: iso(row.expiresAt),
  };
}

export interface KeyView extends KeySettingsView {
  created_at: string;
  last_used_at: string | null;
  /** Beyond the basic list shape: what a console shows next to each key. Revoked keys are not listed. */
  status: ApiKeyRow['status'];
  rotation_interval_days: number | null;
  inactivity_timeout_days: number | null;
}

export function toKeyView(row: ApiKeyRow): KeyView {
  return {
    ...toKeySettingsView(row),
    created_at: row.createdAt.toISOString(),
    last_used_at: iso(row.lastUsedAt),
    status: row.status,
    rotation_interval_days: row.rotationIntervalDays,
    inactivity_timeout_days: row.inactivityTimeoutDays,
  };
}

export interface CreatedKeyView {
  id: string;
  name: string;
  key: string;
  allowed_models: string[] | null;
  rate_limit_rpm: number | null;
  expires_at: string | null;
  created_at: string;
}

export function toCreatedKeyView(row: ApiKeyRow, key: string): CreatedKeyView {
  return {
    id: row.id,
    name: row.name,
    key,
    allowed_models: row.allowedModels,
    rate_limit_rpm: row.rateLimitRpm,
    expires_at: iso(row.expiresAt),
    created_at: row.createdAt.toISOString(),
  };
}

export interface UpdatedKeyView extends KeySettingsView {
  rotation_interval_days: number | null;
  inactivity_timeout_days: number | null;
  updated_at: string;
}

export function toUpdatedKeyView(row: ApiKeyRow): UpdatedKeyView {
  return {
    ...toKeySettingsView(row),
    rotation_interval_days: row.rotationIntervalDays,
    inactivity_timeout_days: row.inactivityTimeoutDays,
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface RotatedKeyView {
  id: string;
  name: string;
  key: string;
  grace_period_ends_at: string;
  rotated_at: string;
}

export interface ExpiringKeyView {
  id: string;
  name: string;
  prefix: string;
  expires_at: string;
  days_remaining: number;
  owner_email: string;
}

/**
 * Whole days left, rounded up: a key expiring later today shows 1, so every key listed for
 * `days=N` has 1 ≤ days_remaining ≤ N.
 */
export function toExpiringKeyView(row: ExpiringKeyRow, now: Date): ExpiringKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    expires_at: row.expiresAt.toISOString(),
    days_remaining: Math.ceil((row.expiresAt.getTime() - now.getTime()) / DAY_MS),
    owner_email: row.ownerEmail,
  };
}
