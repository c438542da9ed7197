import { Table, TagsInput, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { GUARDRAIL_HELP, ROLE_LABELS } from './guardrail-labels';
import { type ContentValue, optionalList, ROLES, type Role, withField } from './guardrail-values';

interface Props {
  value: ContentValue;
  onChange: (next: ContentValue, input: string) => void;
  error: (input: string) => ReactNode;
}

type List = 'allow_models' | 'deny_models';
const COLUMNS: ReadonlyArray<{ list: List; title: string }> = [
  { list: 'allow_models', title: 'Only these models' },
  { list: 'deny_models', title: 'Not these models' },
];

/** security.content's allow_models and deny_models: model-name globs per role (a role left empty is not listed). */
export function ModelGlobsTable({ value, onChange, error }: Props) {
  const set = (list: List, role: Role, globs: string[]) => {
    const byRole = withField(value[list] ?? {}, role, optionalList(globs));
    const next = withField(value, list, Object.keys(byRole).length > 0 ? byRole : undefined);
    onChange(next, `${list}.${role}`);
  };
  return (
    <div>
      <Text size="sm" fw={500}>
        Models by role
      </Text>
      <Text size="xs" c="dimmed" mb={4}>
        {GUARDRAIL_HELP.models}
      </Text>
      <Table withTableBorder verticalSpacing={4} data-testid="content-models">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={100}>Role</Table.Th>
            {COLUMNS.map((column) => (
              <Table.Th key={column.list}>
                {column.title}{' '}
                <Text span size="xs" c="dimmed" ff="monospace" fw={400}>
                  {column.list}
                </Text>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {ROLES.map((role) => (
            <Table.Tr key={role}>
              <Table.Td>{ROLE_LABELS[role]}</Table.Td>
              {COLUMNS.map(({ list, title }) => (
                <Table.Td key={list}>
                  <TagsInput
                    aria-label={`${ROLE_LABELS[role]}: ${title.toLowerCase()}`}
                    placeholder="gpt-4*, embed-*"
                    splitChars={[',', ' ']}
                    value={value[list]?.[role] ?? []}
                    onChange={(globs) => set(list, role, globs)}
                    error={error(`${list}.${role}`)}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
