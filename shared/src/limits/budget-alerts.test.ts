import { describe, expect, it } from 'vitest';
import { budgetWebhookOf } from './budget-alerts';
import { budgetThresholdsOf } from './budget-status';

const reveal = async (sealed: string) => `opened:${sealed}`;

describe('budgetWebhookOf', () => {
  it('is none without a URL, and the URL with its secret opened when both are set', async () => {
    expect(
      await budgetWebhookOf({ budget_alert_webhook_url: '', budget_alert_webhook_secret: 's' }, reveal),
    ).toBeNull();
    expect(
      await budgetWebhookOf(
        { budget_alert_webhook_url: 'https://hooks.test/b', budget_alert_webhook_secret: 's' },
        reveal,
      ),
    ).toEqual({ url: 'https://hooks.test/b', secret: 'opened:s' });
  });

  it('signs nothing when no secret is set', async () => {
    const target = await budgetWebhookOf(
      { budget_alert_webhook_url: 'https://hooks.test/b', budget_alert_webhook_secret: '' },
      () => Promise.reject(new Error('not sealed')),
    );
    expect(target).toEqual({ url: 'https://hooks.test/b', secret: '' });
  });
});

describe('budgetThresholdsOf', () => {
  it('is the warning and critical shares the settings set', () => {
    expect(budgetThresholdsOf({ budget_warning_threshold: 0.6, budget_critical_threshold: 0.9 })).toEqual({
      warning: 0.6,
      critical: 0.9,
    });
  });
});
