import { Tabs } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { KeyLimitsTab } from './KeyLimitsTab';
import { PermissionsTab } from './PermissionsTab';
import { RolesTab } from './RolesTab';
import { TeamsTab } from './TeamsTab';
import { ToolLimitsTab } from './ToolLimitsTab';
import { UserLimitsTab } from './UserLimitsTab';

/** Roles, teams, per-user and per-key limits with live usage, MCP tool limits, and limit-editing grants. */
export function LimitsPage() {
  return (
    <>
      <PageHeader
        title="Limits"
        description="A request is checked against its key's limits and its owner's: the owner's roles (global and through teams, most restrictive wins), then the owner's own overrides."
      />
      <Tabs defaultValue="roles" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="roles">Roles</Tabs.Tab>
          <Tabs.Tab value="teams">Teams</Tabs.Tab>
          <Tabs.Tab value="users">Users</Tabs.Tab>
          <Tabs.Tab value="keys">API keys</Tabs.Tab>
          <Tabs.Tab value="tools">Tool limits</Tabs.Tab>
          <Tabs.Tab value="permissions">Permissions</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="roles">
          <RolesTab />
        </Tabs.Panel>
        <Tabs.Panel value="teams">
          <TeamsTab />
        </Tabs.Panel>
        <Tabs.Panel value="users">
          <UserLimitsTab />
        </Tabs.Panel>
        <Tabs.Panel value="keys">
          <KeyLimitsTab />
        </Tabs.Panel>
        <Tabs.Panel value="tools">
          <ToolLimitsTab />
        </Tabs.Panel>
        <Tabs.Panel value="permissions">
          <PermissionsTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
