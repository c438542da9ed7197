import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ConsoleEnv } from '../types';
import { adminKeysRoutes } from './admin-keys';
import { adminUsersRoutes } from './admin-users';
import { analyticsRoutes } from './analytics';
import { auditRoutes } from './audit';
import { authRoutes } from './auth';
import { gatewayLogsRoutes } from './gateway-logs';
import { healthRoutes } from './health';
import { keysRoutes } from './keys';
import { limitsRoutes } from './limits';
import { mcpRoutes } from './mcp';
import { modelPricesRoutes } from './model-prices';
import { modelsRoutes } from './models';
import { permissionsRoutes } from './permissions';
import { platformLogsRoutes } from './platform-logs';
import { providersRoutes } from './providers';
import { rolesRoutes } from './roles';
import { accessLogsRoutes, appLogsRoutes } from './server-logs';
import { settingsRoutes } from './settings';
import { setupRoutes } from './setup';
import { ssoRoutes } from './sso';
import { teamsRoutes } from './teams';

/** Every /api router, mounted in one place. */
export function registerApiRoutes(app: OpenAPIHono<ConsoleEnv>): void {
  app.route('/api/health', healthRoutes);
  app.route('/api/setup', setupRoutes);
  app.route('/api/auth/sso', ssoRoutes);
  app.route('/api/auth', authRoutes);
  app.route('/api/keys', keysRoutes);
  app.route('/api/admin/users', adminUsersRoutes);
  app.route('/api/admin/keys', adminKeysRoutes);
  app.route('/api/admin/providers', providersRoutes);
  app.route('/api/admin/models', modelsRoutes);
  app.route('/api/admin/model-prices', modelPricesRoutes);
  app.route('/api/admin/settings', settingsRoutes);
  app.route('/api/admin/roles', rolesRoutes);
  app.route('/api/admin/teams', teamsRoutes);
  app.route('/api/admin/limits', limitsRoutes);
  app.route('/api/admin/permissions', permissionsRoutes);
  app.route('/api/mcp', mcpRoutes);
  app.route('/api/audit', auditRoutes);
  app.route('/api/admin/platform-logs', platformLogsRoutes);
  app.route('/api/admin/access-logs', accessLogsRoutes);
  app.route('/api/admin/app-logs', appLogsRoutes);
  app.route('/api/gateway/logs', gatewayLogsRoutes);
  app.route('/api/analytics', analyticsRoutes);
}
