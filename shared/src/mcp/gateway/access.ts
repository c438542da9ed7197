import type { UserRole } from '../../db/schema/users';
import type { SettingValues } from '../../settings/definitions';

export type McpToolAccess = SettingValues['mcp_tool_access'];

/**
 * Whether a caller of this role may list and call a tool (setting security.mcp_tool_access).
 * Admins always may; a role the setting does not list may use every tool; a listed role only
 * the tools its patterns name: `*`, `<server>__*` or `<server>__<tool>`. API keys act with
 * their owner's role.
 */
export function mayUseTool(role: UserRole, publicName: string, access: McpToolAccess): boolean {
  if (role === 'admin') return true;
  const patterns = access[role];
  if (!patterns) return true;
  return patterns.some(
    (p) => p === '*' || p === publicName || (p.endsWith('__*') && publicName.startsWith(p.slice(0, -1))),
  );
}
