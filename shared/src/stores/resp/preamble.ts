import type { RedisEndpoint } from '../redis-url';

/** How Sluice's own Redis connections name themselves in Redis's CLIENT LIST. */
export const REDIS_CLIENT_NAMES = {
  gatewayLink: 'sluice-gateway-link',
  storeBridge: 'sluice-store-bridge',
} as const;

/** AUTH, SELECT and a name for CLIENT LIST: what every new socket says first. */
export function preambleFor(endpoint: RedisEndpoint, clientName: string): string[][] {
  const preamble: string[][] = [];
  if (endpoint.password !== undefined) {
    preamble.push(
      endpoint.username === undefined
        ? ['AUTH', endpoint.password]
        : ['AUTH', endpoint.username, endpoint.password],
    );
  }
  if (endpoint.database !== 0) preamble.push(['SELECT', String(endpoint.database)]);
  preamble.push(['CLIENT', 'SETNAME', clientName]);
  return preamble;
}
