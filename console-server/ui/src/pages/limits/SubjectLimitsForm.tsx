import { Button, Group, Paper, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { applyApiErrors, FormAlert } from '../../api/forms';
import type { Schemas } from '../../api/types';
import { QueryError } from '../../components/QueryError';
import { LimitRowsEditor, type LimitRowsValues } from './LimitRowsEditor';
import { budgetsBody, rulesBody } from './limit-kinds';
import { useSubjectBudgets, useSubjectRules } from './limits-queries';
import { RpmLimit } from './RpmLimit';

type Subject = Schemas['SubjectRules']['subject_type'];

interface Props {
  subject: Subject;
  id: string;
  /** A key's rate_limit_rpm: one of its limits, shown (read-only) with its rules. */
  rpm?: number | null;
}

/** The own rules and budgets of an API key or a user (for a user: overrides after their roles). */
export function SubjectLimitsForm({ subject, id, rpm }: Props) {
  const queryClient = useQueryClient();
  const path = { params: { path: { subject, id } } };
  const rules = useSubjectRules(subject, id);
  const budgets = useSubjectBudgets(subject, id);
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<LimitRowsValues>({ initialValues: { rules: [], budgets: [] } });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!rules.data || !budgets.data) return;
    const values = { rules: rules.data.rules, budgets: budgets.data.budgets };
    setValues(values);
    resetDirty(values);
  }, [rules.data, budgets.data, setValues, resetDirty]);
  const save = useMutation({
    // Two lists, two PUTs: rules first, then budgets; an issue in either lands on its rows.
    mutationFn: async (v: LimitRowsValues) => {
      await unwrap(
        api.PUT('/api/admin/limits/{subject}/{id}/rules', { ...path, body: { rules: rulesBody(v.rules) } }),
      );
      await unwrap(
        api.PUT('/api/admin/limits/{subject}/{id}/budgets', {
          ...path,
          body: { budgets: budgetsBody(v.budgets) },
        }),
      );
    },
    onSuccess: () => {
      notifications.show({ color: 'teal', message: 'Limits saved' });
      for (const key of ['limits-rules', 'limits-budgets', 'limits-usage'])
        void queryClient.invalidateQueries({ queryKey: [key, subject, id] });
    },
    onError: (error) => setAlert(applyApiErrors(form, error)),
  });
  const error = rules.error ?? budgets.error;
  if (error) return <QueryError error={error} />;
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={form.onSubmit((v) => {
          setAlert(null);
          save.mutate(v);
        })}
        data-testid="subject-limits-form"
      >
        <Stack>
          <FormAlert message={alert} />
          <LimitRowsEditor
            form={form}
            fixedRules={
              typeof rpm === 'number' ? (
                <RpmLimit
                  rpm={rpm}
                  note="the key's requests per minute, changed with the key (API keys page)"
                />
              ) : undefined
            }
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!rules.data || !budgets.data}>
              Save limits
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
