import { Stack, Text } from '@mantine/core';
import type { Schemas } from '../../api/types';
import { budgetText, ruleText } from '../limits/limit-kinds';
import { useSubjectBudgets, useSubjectRules } from '../limits/limits-queries';
import { RpmLimit } from '../limits/RpmLimit';

/**
 * A key's own limits, worded as on the limits page: its RPM ("120 requests / 1m"), then, for
 * callers who may read them (admins), its rules and budgets.
 */
export function KeyLimitsCell({ apiKey, withRules }: { apiKey: Schemas['ApiKey']; withRules: boolean }) {
  const rules = useSubjectRules('api_key', apiKey.id, withRules);
  const budgets = useSubjectBudgets('api_key', apiKey.id, withRules);
  const lines = [
    ...(rules.data?.rules.map(ruleText) ?? []),
    ...(budgets.data?.budgets.map(budgetText) ?? []),
  ];
  const rpm = apiKey.rate_limit_rpm;
  const loading = withRules && (rules.isPending || budgets.isPending);
  return (
    <Stack gap={2} data-testid="key-limits">
      {rpm !== null && <RpmLimit rpm={rpm} />}
      {lines.map((line) => (
        <Text key={line} size="sm" data-testid="key-limit">
          {line}
        </Text>
      ))}
      {rpm === null && lines.length === 0 && !loading && (
        <Text size="sm" c="dimmed">
          {withRules ? "None of its own: its owner's apply" : 'No RPM limit'}
        </Text>
      )}
    </Stack>
  );
}
