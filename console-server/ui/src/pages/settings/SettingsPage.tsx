import { Paper, Tabs } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { SETTINGS_QUERY, SettingsCategoryForm } from './SettingsCategoryForm';
import { settingFields, useOpenApiDoc } from './setting-fields';
import { categoryLabel } from './setting-labels';

/** Every settings category as a tab with its own form. */
export function SettingsPage() {
  const settings = useQuery({
    queryKey: SETTINGS_QUERY,
    queryFn: () => unwrap(api.GET('/api/admin/settings')),
  });
  const doc = useOpenApiDoc();
  const categories = useMemo(() => {
    if (!settings.data || doc.isPending) return [];
    return Object.entries(settings.data as Record<string, Record<string, unknown>>).map(([name, stored]) => ({
      name,
      stored,
      fields: settingFields(doc.data, name, stored),
    }));
  }, [settings.data, doc.data, doc.isPending]);
  const first = categories[0]?.name;
  return (
    <>
      <PageHeader
        title="Settings"
        description="Changes apply within seconds on both servers. Secret settings are write-only."
      />
      <QueryError error={settings.error} />
      {first && (
        <Tabs defaultValue={first} keepMounted={false}>
          <Tabs.List mb="md">
            {categories.map((c) => (
              <Tabs.Tab key={c.name} value={c.name}>
                {categoryLabel(c.name)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {categories.map((c) => (
            <Tabs.Panel key={c.name} value={c.name}>
              <Paper withBorder p="md">
                <SettingsCategoryForm category={c.name} fields={c.fields} stored={c.stored} />
              </Paper>
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </>
  );
}
