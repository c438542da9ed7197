import type { OAuthKv } from '../../auth/oauth/ports';
import type { SecretBox } from '../../secrets/secret-box';
import { sha256Hex } from '../../util/encoding';
import type { MachineCredentials, McpServerTarget } from '../ports';
import { type MachineToken, requestMachineToken } from './machine-token';

/**
 * The tokens of the servers Sluice signs in to as itself, shared by every caller: held in the
 * isolate, and sealed in Redis for the other isolates and processes (until shortly before they
 * expire). A token the server refuses (401) is fetched again, once. Each entry remembers a
 * fingerprint of the registration it was fetched for, so a changed credential, endpoint or
 * grant does not reuse it.
 */
export interface MachineTokenDeps {
  kv: OAuthKv;
  secrets: SecretBox;
  fetch: typeof fetch;
  now(): Date;
}

export interface MachineTokens {
  /** The server's token: held, else from Redis, else fetched. */
  token(server: MachineTargetRef): Promise<string>;
  /** The server refused `refused`: a token fetched after it (one request at most). */
  renew(server: MachineTargetRef, refused: string): Promise<string>;
}

export interface MachineTargetRef {
  id: string;
  name: string;
  endpointUrl: string;
  machine: MachineCredentials;
}

interface Held extends MachineToken {
  fingerprint: string;
}

const kvKey = (serverId: string) => `sluice:mcp:machine-token:${serverId}`;

export function createMachineTokens(deps: MachineTokenDeps): MachineTokens {
  const held = new Map<string, Held>();
  const inFlight = new Map<string, Promise<Held>>();
  const usable = (entry: Held | null | undefined, fingerprint: string): entry is Held =>
    !!entry && entry.fingerprint === fingerprint && entry.refreshAt > deps.now().getTime();

  async function stored(serverId: string): Promise<Held | null> {
    const sealed = await deps.kv.get(kvKey(serverId)).catch(() => null);
    if (typeof sealed !== 'string') return null;
    return deps.secrets
      .decrypt(sealed)
      .then((plain) => JSON.parse(plain) as Held)
      .catch(() => null);
  }

  async function fetchFresh(server: MachineTargetRef, fingerprint: string): Promise<Held> {
    const token = await requestMachineToken(server, server.machine, deps);
    const entry = { ...token, fingerprint };
    held.set(server.id, entry);
    const ttl = Math.ceil((entry.refreshAt - deps.now().getTime()) / 1000);
    if (ttl > 0) {
      const sealed = await deps.secrets.encrypt(JSON.stringify(entry));
      // Redis only spares the other isolates a token request: failing to store it fails nothing.
      await deps.kv.set(kvKey(server.id), sealed, { ex: ttl }).catch(() => {});
    }
    return entry;
  }

  /** Concurrent callers of one isolate share one token request. */
  function fetchOnce(server: MachineTargetRef, fingerprint: string): Promise<Held> {
    const key = `${server.id}:${fingerprint}`;
    const pending = inFlight.get(key);
    if (pending) return pending;
    const request = fetchFresh(server, fingerprint).finally(() => inFlight.delete(key));
    inFlight.set(key, request);
    return request;
  }

  return {
    async token(server) {
      const fingerprint = await fingerprintOf(server);
      const mine = held.get(server.id);
      if (usable(mine, fingerprint)) return mine.accessToken;
      const shared = await stored(server.id);
      if (usable(shared, fingerprint)) {
        held.set(server.id, shared);
        return shared.accessToken;
      }
      return (await fetchOnce(server, fingerprint)).accessToken;
    },
    async renew(server, refused) {
      const fingerprint = await fingerprintOf(server);
      const mine = held.get(server.id);
      // Another call of this isolate renewed it meanwhile.
      if (usable(mine, fingerprint) && mine.accessToken !== refused) return mine.accessToken;
      held.delete(server.id);
      await deps.kv.del(kvKey(server.id)).catch(() => 0);
      return (await fetchOnce(server, fingerprint)).accessToken;
    },
  };
}

/** What a token was fetched for; kept only inside the sealed entry and in the isolate. */
function fingerprintOf(server: MachineTargetRef): Promise<string> {
  const { grant, clientId, clientSecret, privateKey, assertion } = server.machine;
  return sha256Hex(
    JSON.stringify([server.endpointUrl, grant, clientId, clientSecret, privateKey, assertion]),
  );
}

/**
 * A server Sluice signs in to as itself, ready to call: its token as the bearer credential, and
 * a fresh one when the server refuses it. Other targets are returned as they are.
 */
export async function targetForMachine(
  target: McpServerTarget,
  tokens: MachineTokens,
): Promise<McpServerTarget> {
  const { machine, ...rest } = target;
  if (!machine) return target;
  const ref = { id: target.id, name: target.name, endpointUrl: target.endpointUrl, machine };
  return {
    ...rest,
    authType: 'bearer',
    authSecret: await tokens.token(ref),
    renewSecret: (refused) => tokens.renew(ref, refused),
  };
}
