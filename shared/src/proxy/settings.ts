import type { StoreEnv } from '../config/env';
import { answerRulesTag } from '../guardrails/answer-rules-tag';
import { contentPolicyOf } from '../guardrails/content-policy';
import { redactPolicyOf } from '../guardrails/redact-policy';
import { toolPolicyOf } from '../guardrails/tool-policy';
import { budgetThresholdsOf } from '../limits/budget-status';
import type { SettingValues } from '../settings/definitions';
import type { ProxySettings } from './types';

/** The environment's say in the proxy's settings: upstream timeouts set for the deployment. */
export type ProxySettingsEnv = Pick<
  StoreEnv,
  'SLUICE_UPSTREAM_FIRST_BYTE_TIMEOUT_MS' | 'SLUICE_UPSTREAM_IDLE_TIMEOUT_MS'
>;

/**
 * The proxy's settings from the console's (as the settings cache holds them) and the
 * environment's. SLUICE_UPSTREAM_FIRST_BYTE_TIMEOUT_MS, when set, overrides the
 * upstream_timeout_seconds setting; the guardrail settings become the rules they stand for.
 */
export function proxySettingsOf(values: SettingValues, env: ProxySettingsEnv): ProxySettings {
  return {
    cacheTtlSeconds: values.cache_ttl_seconds,
    upstreamTimeoutMs: env.SLUICE_UPSTREAM_FIRST_BYTE_TIMEOUT_MS ?? values.upstream_timeout_seconds * 1000,
    upstreamIdleTimeoutMs: env.SLUICE_UPSTREAM_IDLE_TIMEOUT_MS,
    rateLimitFailClosed: values.rate_limit_fail_closed,
    budgetThresholds: budgetThresholdsOf(values),
    reservationOutputTokens: values.token_reservation_output_tokens,
    contentPolicy: contentPolicyOf(values.content),
    redaction: redactPolicyOf(values.redact),
    toolPolicy: toolPolicyOf(values.inspect_tools),
    answerRulesTag: answerRulesTag(values.redact, values.inspect_tools),
  };
}
