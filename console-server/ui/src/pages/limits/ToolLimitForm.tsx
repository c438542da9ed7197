import { Autocomplete, Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { RequestBody, Schemas } from '../../api/types';
import { useAllMcpTools } from '../mcp/mcp-queries';
import { type BudgetPeriod, type LimitWindow, PERIOD_OPTIONS, WINDOW_OPTIONS } from './limit-kinds';
import { useAdminKeySearch, useChoices } from './limits-queries';
import { SUBJECT_LABELS, toolPatternOptions } from './tool-limit-text';

type Subject = Schemas['ToolLimit']['subject_type'];
type Body = RequestBody<'/api/admin/limits/{subject}/{id}/tool-limits', 'post'>;

const initialValues = {
  subject_type: 'role' as Subject,
  subject_id: '',
  tool: '',
  kind: 'rate' as Schemas['ToolLimit']['kind'],
  window: '1m' as LimitWindow,
  period: 'daily' as BudgetPeriod,
  limit: '' as number | string,
};
type Values = typeof initialValues;

const KIND_OPTIONS = [
  { value: 'rate', label: 'Rate: calls per sliding window' },
  { value: 'budget', label: 'Budget: calls per calendar period' },
];

/** Keys of any user, searched on the server by name, prefix or owner email. */
function useKeyOptions(search: string) {
  const [q] = useDebouncedValue(search.trim(), 250);
  const keys = useAdminKeySearch(q);
  return keys.data?.entries.map((k) => ({
    value: k.id,
    label: `${k.name} (${k.prefix}…) — ${k.owner_email}`,
  }));
}

/** What the API takes: the window of a rate or the period of a budget; the number as typed. */
function bodyOf(v: Values): Body {
  const limit = v.limit as number;
  return v.kind === 'rate'
    ? { tool: v.tool, kind: 'rate', window: v.window, limit }
    : { tool: v.tool, kind: 'budget', period: v.period, limit };
}

/** Adds a rate limit or call budget on MCP tools for a role, a user or an API key. */
export function ToolLimitForm({ onAdded }: { onAdded: () => void }) {
  const choices = useChoices();
  const tools = useAllMcpTools();
  const [keySearch, setKeySearch] = useState('');
  const keyOptions = useKeyOptions(keySearch);
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm({ initialValues });
  const { subject_type: subject, kind } = form.getValues();
  const add = useMutation({
    mutationFn: (v: Values) =>
      unwrap(
        api.POST('/api/admin/limits/{subject}/{id}/tool-limits', {
          params: { path: { subject: v.subject_type, id: v.subject_id } },
          body: bodyOf(v),
        }),
      ),
    onSuccess: () => {
      form.setValues({ tool: '', limit: '' });
      onAdded();
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  const selectProps = (name: 'subject_type' | 'subject_id' | 'kind' | 'window' | 'period') => {
    const props = form.getInputProps(name);
    return { ...props, value: props.value || null, onChange: (v: string | null) => props.onChange(v ?? '') };
  };
  const subjects =
    subject === 'role' ? choices.roles : subject === 'user' ? choices.users : (keyOptions ?? []);
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={form.onSubmit((v) => {
          setAlert(null);
          if (!v.subject_id)
            return form.setFieldError('subject_id', `Pick a ${SUBJECT_LABELS[v.subject_type]}`);
          add.mutate(v);
        })}
        data-testid="tool-limit-form"
      >
        <Stack>
          <FormAlert message={alert} />
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <Select
              label="Applies to"
              data={Object.entries(SUBJECT_LABELS).map(([value, label]) => ({ value, label }))}
              allowDeselect={false}
              {...selectProps('subject_type')}
              onChange={(v) => form.setValues({ subject_type: (v ?? 'role') as Subject, subject_id: '' })}
            />
            <Select
              label={SUBJECT_LABELS[subject]}
              data={subjects}
              searchable
              {...selectProps('subject_id')}
              {...(subject === 'api_key' && {
                onSearchChange: setKeySearch,
                filter: ({ options }) => options,
                placeholder: 'Search keys',
              })}
            />
            <Autocomplete
              label="Tool"
              description="<server>__<tool>, <server>__* or *"
              data={toolPatternOptions(tools.data)}
              {...form.getInputProps('tool')}
            />
            <Select label="Kind" data={KIND_OPTIONS} allowDeselect={false} {...selectProps('kind')} />
            {kind === 'rate' ? (
              <Select label="Window" data={WINDOW_OPTIONS} allowDeselect={false} {...selectProps('window')} />
            ) : (
              <Select label="Period" data={PERIOD_OPTIONS} allowDeselect={false} {...selectProps('period')} />
            )}
            <NumberInput label="Calls" allowDecimal={false} {...form.getInputProps('limit')} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={add.isPending}>
              Add tool limit
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
