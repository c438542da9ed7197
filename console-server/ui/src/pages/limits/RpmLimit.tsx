import { Badge, Group, Text } from '@mantine/core';
import { rpmRule, ruleText } from './limit-kinds';

/**
 * A key's rate_limit_rpm shown as the key limit it is ("120 requests / 1m"), tagged RPM: the
 * same on the API keys page and the limits page. It is set with the key, not with its rules.
 */
export function RpmLimit({ rpm, note }: { rpm: number; note?: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" data-testid="key-rpm-limit">
        {ruleText(rpmRule(rpm))}
      </Text>
      <Badge size="xs" variant="light" color="gray">
        RPM
      </Badge>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Group>
  );
}
