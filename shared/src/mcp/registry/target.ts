import type { McpServerRow } from '../../db/repos/mcp-repo';
import type { SecretBox } from '../../secrets/secret-box';
import type { ExchangeCredentials } from '../oauth/exchange-token';
import type { MachineCredentials, McpServerTarget } from '../ports';
import { isMachineAuth } from './schemas';

/** A registered server ready to connect to, its secret opened (kept in memory only). */
export async function toMcpServerTarget(row: McpServerRow, secrets: SecretBox): Promise<McpServerTarget> {
  const authSecret = row.authSecretEncrypted ? await secrets.decrypt(row.authSecretEncrypted) : null;
  if (isMachineAuth(row.authType)) {
    // The workload JWT goes to the authorization server only, never to the MCP server.
    const machine = await machineCredentialsOf(row, authSecret, secrets);
    return { ...targetFields(row), authSecret: null, machine };
  }
  if (row.authType === 'oauth_token_exchange')
    return { ...targetFields(row), authSecret: null, exchange: await exchangeCredentialsOf(row, secrets) };
  return { ...targetFields(row), authSecret };
}

function targetFields(row: McpServerRow) {
  return {
    id: row.id,
    name: row.name,
    endpointUrl: row.endpointUrl,
    transportType: row.transportType,
    authType: row.authType,
    authName: row.authName,
  };
}

async function exchangeCredentialsOf(row: McpServerRow, secrets: SecretBox): Promise<ExchangeCredentials> {
  const open = (sealed: string | null) => (sealed === null ? null : secrets.decrypt(sealed));
  return {
    client: {
      clientId: row.oauthClientId,
      clientSecret: await open(row.oauthClientSecretEncrypted),
      privateKey: await open(row.oauthPrivateKeyEncrypted),
    },
    idp: {
      issuer: row.idpIssuer ?? '',
      clientId: row.idpClientId ?? '',
      clientSecret: await open(row.idpClientSecretEncrypted),
    },
  };
}

async function machineCredentialsOf(
  row: McpServerRow,
  authSecret: string | null,
  secrets: SecretBox,
): Promise<MachineCredentials> {
  const open = (sealed: string | null) => (sealed === null ? null : secrets.decrypt(sealed));
  const jwtBearer = row.authType === 'oauth_jwt_bearer';
  return {
    grant: jwtBearer ? 'jwt_bearer' : 'client_credentials',
    clientId: row.oauthClientId,
    clientSecret: await open(row.oauthClientSecretEncrypted),
    privateKey: await open(row.oauthPrivateKeyEncrypted),
    assertion: jwtBearer ? authSecret : null,
  };
}
