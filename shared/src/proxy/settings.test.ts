import { describe, expect, it } from 'vitest';
import { answerRulesTag } from '../guardrails/answer-rules-tag';
import { defaultSettings } from '../settings/definitions';
import { proxySettingsOf } from './settings';

const ENV = { SLUICE_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: undefined, SLUICE_UPSTREAM_IDLE_TIMEOUT_MS: 60_000 };

describe('proxySettingsOf', () => {
  it('takes the settings as the console set them, and the idle timeout from the environment', () => {
    const values = {
      ...defaultSettings(),
      cache_ttl_seconds: 42,
      upstream_timeout_seconds: 7,
      rate_limit_fail_closed: true,
      budget_warning_threshold: 0.5,
      budget_critical_threshold: 0.9,
      token_reservation_output_tokens: 2_048,
    };
    expect(proxySettingsOf(values, ENV)).toEqual({
      cacheTtlSeconds: 42,
      upstreamTimeoutMs: 7_000,
      upstreamIdleTimeoutMs: 60_000,
      rateLimitFailClosed: true,
      budgetThresholds: { warning: 0.5, critical: 0.9 },
      reservationOutputTokens: 2_048,
      contentPolicy: null,
      redaction: null,
      toolPolicy: null,
      answerRulesTag: answerRulesTag(values.redact, values.inspect_tools),
    });
  });

  it('lets SLUICE_UPSTREAM_FIRST_BYTE_TIMEOUT_MS override upstream_timeout_seconds', () => {
    const settings = proxySettingsOf(defaultSettings(), {
      ...ENV,
      SLUICE_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: 1_500,
    });
    expect(settings.upstreamTimeoutMs).toBe(1_500);
  });
});
