// The conformance suite's client mode, pointed at Sluice's upstream connector: the suite starts
// this command with a scenario's MCP server URL; it registers that server with a running Sluice
// (auth scenarios: as a server where each user signs in, then connects the admin's account by
// following the authorization server's redirects back to the console, or, for enterprise-managed
// authorization, with the ID token the scenario's identity provider issued; the client credentials
// and workload identity scenarios: as a server Sluice signs in to as itself, with the client or
// the workload JWT the scenario gives), and drives the calls through the gateway at /mcp/<name>
// with an API key, as an agent would.
// Env: SLUICE_CONSOLE, SLUICE_GATEWAY, SLUICE_ADMIN_TOKEN, SLUICE_KEY; the suite sets
// MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT.
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'unknown';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const {
  SLUICE_CONSOLE: consoleUrl,
  SLUICE_GATEWAY: gatewayUrl,
  SLUICE_ADMIN_TOKEN: token,
  SLUICE_KEY: key,
} = process.env;
const name =
  `c-${scenario.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}-${randomBytes(3).toString('hex')}`.slice(0, 64);

async function api(method, path, body) {
  const response = await fetch(`${consoleUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The user's browser: follows the authorization server's redirects until the console's callback. */
async function followToConsole(url) {
  let next = url;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`authorization stopped at ${next}: ${response.status} ${await response.text()}`);
    next = new URL(location, next).toString();
    if (next.startsWith(`${consoleUrl}/mcp/connections`)) {
      const answer = new URL(next);
      if (answer.searchParams.get('error')) throw new Error(answer.searchParams.get('error'));
      return;
    }
  }
  throw new Error('too many redirects');
}

/** What an agent would pass: a value of each required property's type. */
function argumentsFor(tool, tools) {
  const schema = tool.inputSchema ?? {};
  const sample = { number: 1, integer: 1, string: 'x', boolean: true, array: [], object: {} };
  const args = {};
  for (const name of schema.required ?? []) args[name] = sample[schema.properties?.[name]?.type] ?? 'x';
  // A tool that asks for a schema back (json-schema scenarios: an echo beside the focal tool)
  // gets the other tool's inputSchema, verbatim as the gateway listed it.
  if (schema.properties?.schema?.type === 'object')
    args.schema = (tools.find((other) => other.name !== tool.name) ?? tool).inputSchema;
  return args;
}

async function connectAccount(server) {
  if (exchange) {
    await api('POST', `/api/mcp/connections/${server.id}/id-token`, { id_token: context.idp_id_token });
    return;
  }
  const { authorization_url: authorizationUrl } = await api('POST', `/api/mcp/connections/${server.id}`);
  await followToConsole(authorizationUrl);
}

/** A server Sluice signs in to as itself: its auth fields from the scenario's context, else null. */
function machineAuth() {
  // Workload identity federation: the JWT the platform gave the workload (its valid one).
  if (context.valid_jwt)
    return {
      auth_type: 'oauth_jwt_bearer',
      auth_secret: context.valid_jwt,
      oauth_client_id: context.client_id ?? null,
    };
  if (!scenario.startsWith('auth/client-credentials')) return null;
  const client = { auth_type: 'oauth_client_credentials', oauth_client_id: context.client_id };
  return context.private_key_pem
    ? { ...client, oauth_private_key: context.private_key_pem }
    : { ...client, oauth_client_secret: context.client_secret };
}

/**
 * Enterprise-managed authorization: each user's ID token from the company's identity provider
 * (the one the scenario issued) is exchanged there for the grant Sluice presents as the client
 * the scenario registered at the server's authorization server.
 */
function exchangeAuth() {
  if (!context.idp_id_token) return null;
  return {
    auth_type: 'oauth_token_exchange',
    oauth_client_id: context.client_id,
    oauth_client_secret: context.client_secret ?? null,
    idp_issuer: context.idp_issuer,
    idp_client_id: context.idp_client_id,
  };
}

const machine = machineAuth();
const exchange = exchangeAuth();
// Each user signs in: the admin connects their account before discovering.
const auth = scenario.startsWith('auth/') && !machine;
const server = await api('POST', '/api/mcp/servers', {
  name,
  endpoint_url: serverUrl,
  auth_type: auth ? 'oauth' : 'none',
  // A client the admin registered at the authorization server beforehand (pre-registration).
  ...(auth && context.client_id
    ? { oauth_client_id: context.client_id, oauth_client_secret: context.client_secret ?? null }
    : {}),
  ...machine,
  ...exchange,
});
try {
  if (auth) await connectAccount(server);
  // The gateway serves the tools the console discovered (as the admin, for an auth scenario).
  // Told to connect again (the server refused the token, or moved to another authorization
  // server), the user does, once.
  await api('POST', `/api/mcp/servers/${server.id}/discover`).catch(async (error) => {
    if (!auth || !/Connect your/.test(String(error))) throw error;
    await connectAccount(server);
    await api('POST', `/api/mcp/servers/${server.id}/discover`);
  });
  // An agent that answers what servers ask mid-call (relayed by the gateway): it accepts.
  const client = new Client(
    { name: 'sluice-conformance', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {}, roots: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'ok' },
    model: 'conformance',
    stopReason: 'endTurn',
  }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [] }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/mcp/${name}`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  let { tools } = await client.listTools();
  // The gateway reads the catalog's version at most once a second.
  for (let i = 0; i < 20 && tools.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    ({ tools } = await client.listTools());
  }
  // The scenario's own calls, else every tool once, as an agent exploring a server would.
  const calls =
    context.toolCalls ?? tools.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool, tools) }));
  for (const call of calls) {
    const callTool = () => client.callTool({ name: call.name, arguments: call.arguments ?? {} });
    await callTool()
      .catch(async (error) => {
        // Told to connect again (the server wants a wider scope: step-up), the user does, and
        // the agent calls once more.
        if (!auth || !/Connect your/.test(String(error))) throw error;
        await connectAccount(server);
        return callTool();
      })
      .catch((error) => {
        // A tool that fails is the server's answer; the scenario judges it, and the agent goes on.
        console.error(`${call.name}: ${error.message}`);
      });
  }
  await client.close();
} finally {
  await api('DELETE', `/api/mcp/servers/${server.id}`).catch(() => {});
}
