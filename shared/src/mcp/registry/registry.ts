import { type Page, type PageQuery, pageOf } from '../../db/paging';
import { writeAudit } from '../../db/repos/audit-repo';
import {
  countMcpTools,
  deleteMcpServerRow,
  findMcpServerById,
  insertMcpServerIfNameFree,
  listMcpServersWithToolCounts,
  listMcpToolsWithServer,
  lockMcpServerNames,
  type McpServerPatch,
  type McpServerRow,
  type McpToolFilter,
  mcpVirtualServerNameTaken,
  updateMcpServerRow,
} from '../../db/repos/mcp-repo';
import type { Db } from '../../db/types';
import { conflict, notFound, unprocessable } from '../../http/app-error';
import { type ChangeDeps, commitThenBump } from '../../runtime/cache-versions';
import type { SecretBox } from '../../secrets/secret-box';
import type { AuditActor } from '../../users/ports';
import type { ConnectingServer } from '../oauth/connect';
import { isSigningKey } from '../oauth/machine-grants';
import {
  authProblems,
  type CreateMcpServerInput,
  isSecretless,
  takesClient,
  takesPrivateKey,
  type UpdateMcpServerInput,
} from './schemas';
import { type McpServerView, type McpToolView, toMcpServerView, toMcpToolView } from './views';

/** `db` must support transactions; `secrets` seals auth_secret before it reaches the database. */
export interface McpRegistryDeps extends ChangeDeps {
  secrets: SecretBox;
}

export type McpServerListItem = McpServerView & { tool_count: number };

/** A page of servers by name, with their tool counts. */
export async function listMcpServers(db: Db, page: PageQuery): Promise<Page<McpServerListItem>> {
  const { rows, total } = await listMcpServersWithToolCounts(db, page);
  return pageOf(
    page,
    total,
    rows.map((row) => ({ ...toMcpServerView(row), tool_count: row.toolCount })),
  );
}

export async function requireMcpServer(db: Db, id: string): Promise<McpServerRow> {
  const row = await findMcpServerById(db, id);
  if (!row) throw notFound('MCP server not found');
  return row;
}

/** A server as its users connect to it: with the admin's pre-registered OAuth client, opened. */
export async function connectingServerOf(row: McpServerRow, secrets: SecretBox): Promise<ConnectingServer> {
  const secret = row.oauthClientSecretEncrypted;
  return {
    id: row.id,
    name: row.name,
    endpointUrl: row.endpointUrl,
    preRegistered: row.oauthClientId
      ? { clientId: row.oauthClientId, clientSecret: secret === null ? null : await secrets.decrypt(secret) }
      : null,
  };
}

export async function getMcpServer(db: Db, id: string): Promise<McpServerListItem> {
  const row = await requireMcpServer(db, id);
  return { ...toMcpServerView(row), tool_count: await countMcpTools(db, id) };
}

export async function createMcpServer(
  deps: McpRegistryDeps,
  input: CreateMcpServerInput,
  actor: AuditActor,
): Promise<McpServerView> {
  const authSecretEncrypted =
    input.auth_secret === null ? null : await deps.secrets.encrypt(input.auth_secret);
  const oauthClientSecretEncrypted =
    input.oauth_client_secret === null ? null : await deps.secrets.encrypt(input.oauth_client_secret);
  await checkSigningKey(input.oauth_private_key ?? null);
  const oauthPrivateKeyEncrypted =
    input.oauth_private_key === null ? null : await deps.secrets.encrypt(input.oauth_private_key);
  const idpClientSecretEncrypted =
    input.idp_client_secret === null ? null : await deps.secrets.encrypt(input.idp_client_secret);
  return commitThenBump(deps, ['mcp'], async (tx) => {
    // One namespace with virtual servers (/mcp/{name}).
    await lockMcpServerNames(tx);
    if (await mcpVirtualServerNameTaken(tx, input.name))
      throw conflict('An MCP virtual server has that name');
    const row = await insertMcpServerIfNameFree(tx, {
      name: input.name,
      description: input.description,
      endpointUrl: input.endpoint_url,
      transportType: input.transport_type,
      authType: input.auth_type,
      authName: input.auth_name,
      authSecretEncrypted,
      oauthClientId: input.oauth_client_id,
      oauthClientSecretEncrypted,
      oauthPrivateKeyEncrypted,
      idpIssuer: input.idp_issuer,
      idpClientId: input.idp_client_id,
      idpClientSecretEncrypted,
    });
    if (!row) throw conflict('MCP server name already exists');
    await writeAudit(tx, {
      ...actor,
      action: 'mcp_server.create',
      resourceType: 'mcp_server',
      resourceId: row.id,
      details: { name: row.name, transport_type: row.transportType, auth_type: row.authType },
    });
    return toMcpServerView(row);
  });
}

/** A private key must be one Sluice can sign client assertions with (422 otherwise). */
async function checkSigningKey(pem: string | null): Promise<void> {
  if (pem === null || (await isSigningKey(pem))) return;
  const problem = {
    path: 'oauth_private_key',
    message: 'is not an EC, RSA or Ed25519 private key Sluice can sign with',
  };
  throw unprocessable(`Invalid request: ${problem.path} ${problem.message}`, [problem]);
}

/** The patch for a PATCH body, after checking the auth fields as they will be stored. */
async function toPatch(
  secrets: SecretBox,
  row: McpServerRow,
  input: UpdateMcpServerInput,
): Promise<McpServerPatch> {
  const authType = input.auth_type ?? row.authType;
  // Switching to an auth type without a name drops the stored one, unless a name is sent.
  const keepsName = authType === 'header' || authType === 'query';
  const authName = input.auth_name !== undefined ? input.auth_name : keepsName ? row.authName : null;
  const secretSent = input.auth_secret !== undefined && input.auth_secret !== null;
  const secretless = isSecretless(authType);
  const keepsSecret = !secretless && input.auth_secret === undefined && row.authSecretEncrypted !== null;
  const client = oauthClientOf(row, input, authType);
  const idp = identityProviderOf(row, input, authType);
  const problems = authProblems({
    auth_type: authType,
    auth_name: authName,
    has_secret: secretSent || keepsSecret,
    secret_sent: secretSent,
    secret_value: input.auth_secret ?? null,
    oauth_client_id: client.id,
    has_oauth_client_secret: client.secretSent !== null || client.keepsSecret,
    has_oauth_private_key: client.keySent !== null || client.keepsKey,
    idp_issuer: idp.issuer,
    idp_client_id: idp.clientId,
    has_idp_client_secret: idp.secretSent !== null || idp.keepsSecret,
  });
  if (problems.length > 0) {
    throw unprocessable(
      `Invalid request: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`,
      problems,
    );
  }
  await checkSigningKey(client.keySent);
  const patch: McpServerPatch = { authType, authName };
  if (input.description !== undefined) patch.description = input.description;
  if (input.endpoint_url !== undefined) patch.endpointUrl = input.endpoint_url;
  if (input.transport_type !== undefined) patch.transportType = input.transport_type;
  if (input.is_active !== undefined) patch.isActive = input.is_active;
  if (secretSent) patch.authSecretEncrypted = await secrets.encrypt(input.auth_secret as string);
  if (secretless) patch.authSecretEncrypted = null;
  patch.oauthClientId = client.id;
  if (client.secretSent) patch.oauthClientSecretEncrypted = await secrets.encrypt(client.secretSent);
  else if (!client.keepsSecret) patch.oauthClientSecretEncrypted = null;
  if (client.keySent) patch.oauthPrivateKeyEncrypted = await secrets.encrypt(client.keySent);
  else if (!client.keepsKey) patch.oauthPrivateKeyEncrypted = null;
  patch.idpIssuer = idp.issuer;
  patch.idpClientId = idp.clientId;
  if (idp.secretSent) patch.idpClientSecretEncrypted = await secrets.encrypt(idp.secretSent);
  else if (!idp.keepsSecret) patch.idpClientSecretEncrypted = null;
  return patch;
}

/**
 * The identity provider a PATCH leaves (auth_type oauth_token_exchange): sent values win, the
 * rest is kept under that auth type; its secret is kept while the client id stays. Any other
 * auth type drops it all.
 */
function identityProviderOf(
  row: McpServerRow,
  input: UpdateMcpServerInput,
  authType: McpServerRow['authType'],
) {
  const kept = authType === 'oauth_token_exchange';
  const pick = <T>(sent: T | undefined, stored: T | null): T | null =>
    sent !== undefined ? sent : kept ? stored : null;
  const issuer = pick(input.idp_issuer, row.idpIssuer);
  const clientId = pick(input.idp_client_id, row.idpClientId);
  const secretSent = input.idp_client_secret ?? null;
  const keepsSecret =
    input.idp_client_secret === undefined &&
    clientId !== null &&
    clientId === row.idpClientId &&
    row.idpClientSecretEncrypted !== null;
  return { issuer, clientId, secretSent, keepsSecret };
}

/**
 * The OAuth client a PATCH leaves: sent values win; an omitted secret or key is kept while the
 * client id stays (a key only under a machine auth type); a new key replaces a stored secret
 * and a new secret a stored key; an auth type without a client (or dropping the id) drops all.
 */
function oauthClientOf(row: McpServerRow, input: UpdateMcpServerInput, authType: McpServerRow['authType']) {
  const id =
    input.oauth_client_id !== undefined
      ? input.oauth_client_id
      : takesClient(authType)
        ? row.oauthClientId
        : null;
  const sameClient = id !== null && id === row.oauthClientId;
  const secretSent = input.oauth_client_secret ?? null;
  const keySent = input.oauth_private_key ?? null;
  const keepsSecret =
    input.oauth_client_secret === undefined &&
    keySent === null &&
    sameClient &&
    row.oauthClientSecretEncrypted !== null;
  const keepsKey =
    input.oauth_private_key === undefined &&
    secretSent === null &&
    takesPrivateKey(authType) &&
    sameClient &&
    row.oauthPrivateKeyEncrypted !== null;
  return { id, secretSent, keepsSecret, keySent, keepsKey };
}

export async function updateMcpServer(
  deps: McpRegistryDeps,
  id: string,
  input: UpdateMcpServerInput,
  actor: AuditActor,
): Promise<McpServerView> {
  const before = await requireMcpServer(deps.db, id);
  const patch = await toPatch(deps.secrets, before, input);
  return commitThenBump(deps, ['mcp'], async (tx) => {
    const row = await updateMcpServerRow(tx, id, patch);
    if (!row) throw notFound('MCP server not found');
    await writeAudit(tx, {
      ...actor,
      action: 'mcp_server.update',
      resourceType: 'mcp_server',
      resourceId: row.id,
      // Field names only: the secret is secret, the rest is visible on the server itself.
      details: { name: row.name, changes: Object.keys(input).sort() },
    });
    return toMcpServerView(row);
  });
}

export async function deleteMcpServer(deps: McpRegistryDeps, id: string, actor: AuditActor): Promise<void> {
  await commitThenBump(deps, ['mcp'], async (tx) => {
    const toolsRemoved = await countMcpTools(tx, id);
    const row = await deleteMcpServerRow(tx, id);
    if (!row) throw notFound('MCP server not found');
    await writeAudit(tx, {
      ...actor,
      action: 'mcp_server.delete',
      resourceType: 'mcp_server',
      resourceId: row.id,
      details: { name: row.name, tools_removed: toolsRemoved },
    });
  });
}

/** A page of the discovered tools that match the filter, by server then name. */
export async function listMcpTools(
  db: Db,
  filter: McpToolFilter,
  page: PageQuery,
): Promise<Page<McpToolView>> {
  const { rows, total } = await listMcpToolsWithServer(db, filter, page);
  return pageOf(
    page,
    total,
    rows.map((row) => toMcpToolView(row, row.serverName)),
  );
}
