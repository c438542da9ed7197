import type { RedisEndpoint } from '../redis-url';

/** How the gateway's Redis link names itself in Redis's CLIENT LIST. */
export const REDIS_LINK_CLIENT_NAME = 'sluice-gateway-link';

/** AUTH, SELECT and a name for CLIENT LIST: what every new socket says first. */
export function preambleFor(endpoint: RedisEndpoint): string[][] {
  const preamble: string[][] = [];
  if (endpoint.password !== undefined) {
    preamble.push(
      endpoint.username === undefined
        ? ['AUTH', endpoint.password]
        : ['AUTH', endpoint.username, endpoint.password],
    );
  }
  if (endpoint.database !== 0) preamble.push(['SELECT', String(endpoint.database)]);
  preamble.push(['CLIENT', 'SETNAME', REDIS_LINK_CLIENT_NAME]);
  return preamble;
}
