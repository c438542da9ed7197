import {
  Autocomplete,
  Button,
  type ComboboxData,
  Group,
  Paper,
  Select,
  SimpleGrid,
  TextInput,
} from '@mantine/core';
import { type GetInputPropsReturnType, useForm } from '@mantine/form';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { applyApiErrors, FormAlert } from '../../api/forms';
import { type Column, DataTable } from '../../components/DataTable';
import { DetailDrawer } from '../../components/DetailDrawer';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { localInputToIso } from '../../lib/format';
import { FilterError, type Resolve } from './directory';

/** One filter input; `name` is the API's query parameter, so a 422 lands on it. */
export interface FilterField {
  name: string;
  label: string;
  /** autocomplete: free text with `suggestions`, turned into the API's value by `resolve`. */
  kind: 'text' | 'select' | 'datetime' | 'autocomplete';
  /** For select: options, or groups of them. */
  options?: ComboboxData;
  suggestions?: string[];
  /** Called as the user types in an autocomplete (to fetch suggestions for it). */
  onType?: (text: string) => void;
  /** What was typed → the value sent (e.g. a user's name → its id); throws FilterError. */
  resolve?: Resolve;
  placeholder?: string;
}

/** The page shape every log view answers. */
export interface LogPage<E> {
  total: number;
  offset: number;
  limit: number;
  entries: E[];
}

export type LogQuery = Record<string, string | number>;

interface Props<E> {
  title: string;
  description?: ReactNode;
  /** Cache key of this view; filters and paging are appended. */
  queryKey: string;
  filters: FilterField[];
  columns: Column<E>[];
  /** Fetches one page; `query` holds only the filters that are set, plus limit and offset. */
  fetchPage: (query: LogQuery) => Promise<LogPage<E>>;
  rowKey: (entry: E) => string;
  drawerTitle: (entry: E) => ReactNode;
  pageSizes?: number[];
}

/**
 * Filter values as typed: datetime inputs become ISO instants, names their ids (`resolve`),
 * empty ones are dropped. A name that matches nothing is an error under its filter.
 */
async function toQuery(
  filters: FilterField[],
  values: Record<string, string>,
): Promise<{ query: LogQuery; errors: Record<string, string> }> {
  const query: LogQuery = {};
  const errors: Record<string, string> = {};
  for (const f of filters) {
    const raw = values[f.name]?.trim() ?? '';
    if (raw === '') continue;
    try {
      // An unparseable date is sent as typed, so the API's message is the one shown.
      query[f.name] =
        f.kind === 'datetime' ? (localInputToIso(raw) ?? raw) : f.resolve ? await f.resolve(raw) : raw;
    } catch (error) {
      if (!(error instanceof FilterError)) throw error;
      errors[f.name] = error.message;
    }
  }
  return { query, errors };
}

/**
 * Keyed by view: the log pages share this component at one place in the tree, so without a
 * key React would keep one page's filters and paging when the user opens another.
 */
export function LogView<E extends object>(props: Props<E>) {
  return <LogViewBody key={props.queryKey} {...props} />;
}

/**
 * The one log screen: a filter form whose fields are the API's query parameters, a table,
 * offset paging and a drawer with every field of the clicked entry. A 422 on a filter is
 * shown under that filter.
 */
function LogViewBody<E extends object>(props: Props<E>) {
  const { filters, fetchPage, queryKey } = props;
  const empty = Object.fromEntries(filters.map((f) => [f.name, '']));
  const form = useForm<Record<string, string>>({ initialValues: empty });
  const [applied, setApplied] = useState<LogQuery>({});
  const [page, setPage] = useState({ offset: 0, limit: 50 });
  const [selected, setSelected] = useState<E | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const query = useQuery({
    queryKey: [queryKey, applied, page],
    queryFn: () => fetchPage({ ...applied, ...page }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const { error } = query;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form object is stable; react to new errors only
  useEffect(() => {
    setAlert(error ? applyApiErrors(form, error) : null);
  }, [error]);
  const submit = form.onSubmit(async (values) => {
    form.clearErrors();
    setAlert(null);
    try {
      const { query: next, errors } = await toQuery(filters, values);
      if (Object.keys(errors).length > 0) return form.setErrors(errors);
      setApplied(next);
      setPage((p) => ({ ...p, offset: 0 }));
    } catch (error) {
      setAlert(error instanceof Error ? error.message : String(error));
    }
  });
  const reset = () => {
    form.setValues(empty);
    form.clearErrors();
    setApplied({});
    setPage((p) => ({ ...p, offset: 0 }));
  };
  return (
    <>
      <PageHeader title={props.title} description={props.description} />
      <Paper withBorder p="sm" mb="md">
        <form onSubmit={submit} data-testid="log-filters">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            {filters.map((f) => (
              <FilterInput key={f.name} field={f} inputProps={form.getInputProps(f.name)} />
            ))}
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={reset}>
              Reset
            </Button>
            <Button type="submit">Apply filters</Button>
          </Group>
        </form>
      </Paper>
      <FormAlert message={alert} />
      <DataTable
        columns={props.columns}
        rows={query.data?.entries}
        rowKey={props.rowKey}
        loading={query.isPending}
        empty="No entries match."
        onRowClick={setSelected}
        testId="log-table"
      />
      {query.data && (
        <Pager
          total={query.data.total}
          offset={query.data.offset}
          limit={query.data.limit}
          onChange={setPage}
          pageSizes={props.pageSizes}
        />
      )}
      <DetailDrawer
        title={selected ? props.drawerTitle(selected) : ''}
        record={selected as Record<string, unknown> | null}
        onClose={() => setSelected(null)}
      />
    </>
  );
}

function FilterInput({ field, inputProps }: { field: FilterField; inputProps: GetInputPropsReturnType }) {
  if (field.kind === 'autocomplete') {
    return (
      <Autocomplete
        label={field.label}
        placeholder={field.placeholder}
        data={field.suggestions ?? []}
        limit={20}
        {...inputProps}
        onChange={(value) => {
          inputProps.onChange(value);
          field.onType?.(value);
        }}
      />
    );
  }
  if (field.kind === 'select') {
    return (
      <Select
        label={field.label}
        data={field.options ?? []}
        clearable
        placeholder={field.placeholder ?? 'Any'}
        {...inputProps}
        value={inputProps.value || null}
        onChange={(v) => inputProps.onChange(v ?? '')}
      />
    );
  }
  return (
    <TextInput
      label={field.label}
      type={field.kind === 'datetime' ? 'datetime-local' : 'text'}
      placeholder={field.placeholder}
      {...inputProps}
    />
  );
}
