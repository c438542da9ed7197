import { Switch } from '@mantine/core';
import type { ReactNode } from 'react';
import { GUARDRAIL_HELP } from './guardrail-labels';
import { withField } from './guardrail-values';

interface Props<T extends { enabled?: boolean }> {
  value: T;
  onChange: (next: T, input: string) => void;
  error: ReactNode;
}

/** A guardrail's `enabled`: on unless set to false; off keeps the rules but turns them off. */
export function EnabledSwitch<T extends { enabled?: boolean }>({ value, onChange, error }: Props<T>) {
  return (
    <Switch
      label="Enabled"
      description={GUARDRAIL_HELP.enabled}
      checked={value.enabled !== false}
      onChange={(event) => onChange(withField(value, 'enabled', event.currentTarget.checked), 'enabled')}
      error={error}
    />
  );
}
