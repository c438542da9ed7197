import type { ReactNode } from 'react';
import { AnalyticsPage } from './pages/analytics/AnalyticsPage';
import { ExpiringKeysPage } from './pages/keys/ExpiringKeysPage';
import { KeysPage } from './pages/keys/KeysPage';
import { LimitsPage } from './pages/limits/LimitsPage';
import { AccessLogsPage } from './pages/logs/AccessLogsPage';
import { AppLogsPage } from './pages/logs/AppLogsPage';
import { AuditLogsPage } from './pages/logs/AuditLogsPage';
import { GatewayLogsPage } from './pages/logs/GatewayLogsPage';
import { McpLogsPage } from './pages/logs/McpLogsPage';
import { PlatformLogsPage } from './pages/logs/PlatformLogsPage';
import { McpConnectionsPage } from './pages/mcp/McpConnectionsPage';
import { McpServersPage } from './pages/mcp/McpServersPage';
import { McpToolsPage } from './pages/mcp/McpToolsPage';
import { ModelsPage } from './pages/models/ModelsPage';
import { ConnectedAppsPage } from './pages/oauth/ConnectedAppsPage';
import { PricesPage } from './pages/prices/PricesPage';
import { ProvidersPage } from './pages/providers/ProvidersPage';
import { SettingsPage } from './pages/settings/SettingsPage';
import { UsersPage } from './pages/users/UsersPage';

export type NavGroup = 'Overview' | 'Gateway' | 'MCP' | 'Logs' | 'Administration';

export interface PageDef {
  /** Route path under the signed-in layout, without a leading slash. */
  path: string;
  label: string;
  group: NavGroup;
  /** Only admins see the nav entry and may open the route. */
  admin: boolean;
  element: ReactNode;
  /** A route without a nav entry (reached from another page). */
  hidden?: boolean;
}

/**
 * Every signed-in screen: the router and the navigation are both built from this list.
 * To add a screen: write pages/<area>/<Name>Page.tsx and add (or replace) its entry here.
 */
export const PAGES: PageDef[] = [
  { path: 'analytics', label: 'Analytics', group: 'Overview', admin: false, element: <AnalyticsPage /> },
  { path: 'keys', label: 'API keys', group: 'Gateway', admin: false, element: <KeysPage /> },
  {
    path: 'keys/expiring',
    label: 'Expiring keys',
    group: 'Gateway',
    admin: false,
    element: <ExpiringKeysPage />,
  },
  { path: 'providers', label: 'Providers', group: 'Gateway', admin: true, element: <ProvidersPage /> },
  { path: 'models', label: 'Models & routes', group: 'Gateway', admin: true, element: <ModelsPage /> },
  {
    path: 'models/prices',
    label: 'Price table',
    group: 'Gateway',
    admin: true,
    element: <PricesPage />,
    hidden: true,
  },
  { path: 'limits', label: 'Limits', group: 'Gateway', admin: true, element: <LimitsPage /> },
  {
    path: 'mcp/servers',
    label: 'MCP servers',
    group: 'MCP',
    admin: true,
    element: <McpServersPage />,
  },
  {
    path: 'mcp/tools',
    label: 'MCP tools',
    group: 'MCP',
    admin: false,
    element: <McpToolsPage />,
  },
  {
    path: 'mcp/connections',
    label: 'Connections',
    group: 'MCP',
    admin: false,
    element: <McpConnectionsPage />,
  },
  {
    path: 'mcp/connected-apps',
    label: 'Connected apps',
    group: 'MCP',
    admin: false,
    element: <ConnectedAppsPage />,
  },
  { path: 'logs/gateway', label: 'Gateway logs', group: 'Logs', admin: false, element: <GatewayLogsPage /> },
  {
    path: 'logs/mcp',
    label: 'MCP logs',
    group: 'Logs',
    admin: true,
    element: <McpLogsPage />,
  },
  {
    path: 'logs/access',
    label: 'Access logs',
    group: 'Logs',
    admin: true,
    element: <AccessLogsPage />,
  },
  {
    path: 'logs/app',
    label: 'App logs',
    group: 'Logs',
    admin: true,
    element: <AppLogsPage />,
  },
  {
    path: 'logs/platform',
    label: 'Platform logs',
    group: 'Logs',
    admin: true,
    element: <PlatformLogsPage />,
  },
  {
    path: 'logs/audit',
    label: 'Audit logs',
    group: 'Logs',
    admin: true,
    element: <AuditLogsPage />,
  },
  {
    path: 'users',
    label: 'Users',
    group: 'Administration',
    admin: true,
    element: <UsersPage />,
  },
  {
    path: 'settings',
    label: 'Settings',
    group: 'Administration',
    admin: true,
    element: <SettingsPage />,
  },
];

export const NAV_GROUPS: NavGroup[] = ['Overview', 'Gateway', 'MCP', 'Logs', 'Administration'];
export const HOME_PATH = '/analytics';
