import type { SecretBox } from '../../auth/secret-box';
import type { McpServerRow } from '../../db/repos/mcp-repo';
import type { McpServerTarget } from '../ports';

/** A registered server ready to connect to, its secret opened (kept in memory only). */
export async function toMcpServerTarget(row: McpServerRow, secrets: SecretBox): Promise<McpServerTarget> {
  return {
    id: row.id,
    name: row.name,
    endpointUrl: row.endpointUrl,
    transportType: row.transportType,
    authType: row.authType,
    authName: row.authName,
    authSecret: row.authSecretEncrypted ? await secrets.decrypt(row.authSecretEncrypted) : null,
  };
}
