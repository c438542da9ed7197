import type { RedisEndpoint } from '../redis-url';

/** How Sluice's own Redis connections name themselves in Redis's CLIENT LIST. */
export const REDIS_CLIENT_NAMES = {
  gatewayLink: 'sluice-gateway-link',
  storeBridge: 'sluice-store-bridge',
  console: 'sluice-console',
} as const;

/**
 * What a new socket says first. The first `required` commands (AUTH, SELECT) must succeed or
 * the socket is useless; the name for CLIENT LIST is a courtesy a locked-down ACL user may be
 * refused without harm.
 */
export interface Preamble {
  commands: string[][];
  required: number;
}

export const NO_PREAMBLE: Preamble = { commands: [], required: 0 };

export function preambleFor(endpoint: RedisEndpoint, clientName: string): Preamble {
  const commands: string[][] = [];
  if (endpoint.password !== undefined) {
    commands.push(
      endpoint.username === undefined
        ? ['AUTH', endpoint.password]
        : ['AUTH', endpoint.username, endpoint.password],
    );
  }
  if (endpoint.database !== 0) commands.push(['SELECT', String(endpoint.database)]);
  const required = commands.length;
  commands.push(['CLIENT', 'SETNAME', clientName]);
  return { commands, required };
}

/** The replies to the required commands, where a refusal means the socket cannot be used. */
export function requiredReplies<R>(preamble: Preamble, replies: readonly R[]): readonly R[] {
  return replies.slice(0, preamble.required);
}
