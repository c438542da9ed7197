import type { Logger } from '../logs/server/logger';
import type { SettingValues } from '../settings/definitions';
import type { RedisPort } from '../stores/redis-port';
import type { Background } from '../util/background';
import { toHex } from '../util/encoding';
import type { BudgetStatus } from './budget-status';

/** A budget that crossed a threshold (or ran out), for one key or one user. */
export interface BudgetAlert {
  level: Exclude<BudgetStatus, 'ok'>;
  /** key or user, and its id. */
  scope: string;
  subjectId: string;
  /** daily, weekly, monthly. */
  period: string;
  /** Weighted tokens used and the budget; null when only the refusal is known. */
  used: number | null;
  limit: number | null;
  /** The period's end (ISO); one alert per level per period. */
  resetsAt: string | null;
}

export interface BudgetAlerts {
  /** Tells of the alert once per subject, period and level across every gateway; never rejects. */
  notice(alert: BudgetAlert, keepAlive: Background): void;
}

export interface WebhookTarget {
  url: string;
  /** Signs the body (HMAC-SHA256) when set. */
  secret: string;
}

/**
 * The webhook the settings name (budget_alert_webhook_url), with its signing secret opened
 * (secret settings are stored sealed, like provider keys); null when no webhook is set.
 */
export async function budgetWebhookOf(
  values: Pick<SettingValues, 'budget_alert_webhook_url' | 'budget_alert_webhook_secret'>,
  reveal: (sealed: string) => Promise<string>,
): Promise<WebhookTarget | null> {
  const url = values.budget_alert_webhook_url;
  const sealed = values.budget_alert_webhook_secret;
  return url ? { url, secret: sealed ? await reveal(sealed) : '' } : null;
}

export interface BudgetAlertDeps {
  redis: Pick<RedisPort, 'set'>;
  logger: Logger;
  /** budget_alert_webhook_url and its secret; null when no webhook is set. */
  webhook(): Promise<WebhookTarget | null>;
  fetch: typeof fetch;
  now(): number;
  /** Pause before each retry of a webhook post (ms); 3 attempts in all by default. */
  retryDelaysMs?: readonly number[];
}

export const BUDGET_ALERT_PREFIX = 'sluice:budget-alert:';
export const SIGNATURE_HEADER = 'x-sluice-signature';
export const TIMESTAMP_HEADER = 'x-sluice-timestamp';
const MAX_REMEMBERED = 10_000;
const DAY_MS = 86_400_000;

/**
 * Budget alerts: the first request that finds a budget past a threshold claims the alert in
 * Redis (SET NX until the period ends), so however many requests and gateways see it, it is
 * told once — an app-log warning, and a POST to the webhook when one is set (signed, retried
 * on connect errors, 429 and 5xx). Each isolate also remembers what it has claimed or seen
 * claimed, so a budget past its threshold costs no store call per request.
 */
export function createBudgetAlerts(deps: BudgetAlertDeps): BudgetAlerts {
  const seen = new Set<string>();
  const log = deps.logger.child('budget');
  const delays = deps.retryDelaysMs ?? [1_000, 3_000];

  const claim = async (alert: BudgetAlert, key: string): Promise<void> => {
    const endsAt = alert.resetsAt ? Date.parse(alert.resetsAt) : Number.NaN;
    const ttlMs = Number.isFinite(endsAt) ? Math.max(60_000, endsAt - deps.now() + DAY_MS) : DAY_MS;
    const first = await deps.redis.set(key, '1', { nx: true, px: ttlMs });
    if (first === null) return;
    log.warn(`${alert.scope} budget ${alert.period} ${alert.level}`, { ...alert });
    const target = await deps.webhook();
    if (target) await post(target, alert, deps, delays);
  };

  return {
    notice(alert, keepAlive) {
      const key = `${BUDGET_ALERT_PREFIX}${alert.scope}:${alert.subjectId}:${alert.period}:${alert.resetsAt ?? ''}:${alert.level}`;
      if (seen.has(key)) return;
      if (seen.size >= MAX_REMEMBERED) seen.clear();
      seen.add(key);
      keepAlive(
        claim(alert, key).catch((error: unknown) => {
          seen.delete(key); // not told: a later request tries again
          log.warn('budget alert not delivered', { error: String(error), ...alert });
        }),
      );
    },
  };
}

async function post(
  target: WebhookTarget,
  alert: BudgetAlert,
  deps: BudgetAlertDeps,
  delays: readonly number[],
): Promise<void> {
  const timestamp = String(Math.floor(deps.now() / 1000));
  const body = JSON.stringify({
    type: 'budget.threshold',
    ...snakeCase(alert),
    at: new Date(deps.now()).toISOString(),
  });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [TIMESTAMP_HEADER]: timestamp,
  };
  if (target.secret)
    headers[SIGNATURE_HEADER] = `sha256=${await hmacHex(target.secret, `${timestamp}.${body}`)}`;
  for (let attempt = 0; ; attempt++) {
    const outcome = await deps
      .fetch(target.url, { method: 'POST', headers, body })
      .then((res) =>
        res.ok ? 'done' : res.status === 429 || res.status >= 500 ? 'retry' : `refused ${res.status}`,
      )
      .catch((error: unknown) => `retry:${String(error)}`);
    if (outcome === 'done') return;
    const delay = delays[attempt];
    if (!outcome.startsWith('retry') || delay === undefined) throw new Error(`webhook ${outcome}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

function snakeCase(alert: BudgetAlert) {
  return {
    level: alert.level,
    scope: alert.scope,
    subject_id: alert.subjectId,
    period: alert.period,
    used: alert.used,
    limit: alert.limit,
    resets_at: alert.resetsAt,
  };
}

/** HMAC-SHA256 of `message`, hex: what a receiver recomputes with the shared secret. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message))));
}
