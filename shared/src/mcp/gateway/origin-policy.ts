import { forbidden } from '../../http/app-error';

/**
 * DNS-rebinding protection for /mcp (the transport spec: servers MUST validate Origin). A web
 * page on another site can make a browser send requests to a gateway on localhost; the
 * browser says where the page came from (Origin) and which name it resolved (Host).
 *
 * - `allowedHosts`: when set, the Host header's name must be one of them (`npm start` and
 *   `npm run serve` set the loopback names when they listen on a loopback address, as the
 *   MCP SDK does for local servers). Unset (the edge): any host.
 * - An `Origin` header, when present, must be listed in `allowedOrigins` or be the same
 *   origin as the request's own Host. Clients that are not browsers send none.
 */
export interface McpOriginPolicy {
  allowedHosts: readonly string[] | null;
  allowedOrigins: readonly string[];
}

export const OPEN_ORIGIN_POLICY: McpOriginPolicy = { allowedHosts: null, allowedOrigins: [] };

/** Comma-separated lists from the environment, lower-cased; empty or unset → null / []. */
export function originPolicyFrom(hosts: string | undefined, origins: string | undefined): McpOriginPolicy {
  const list = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item !== '');
  const allowedHosts = list(hosts);
  return { allowedHosts: allowedHosts.length > 0 ? allowedHosts : null, allowedOrigins: list(origins) };
}

/** Throws the 403 a refused request gets; the request's headers as sent. */
export function checkMcpOrigin(
  headers: { host: string | undefined; origin: string | undefined },
  policy: McpOriginPolicy,
): void {
  const host = (headers.host ?? '').toLowerCase();
  if (policy.allowedHosts && !policy.allowedHosts.includes(hostName(host))) {
    throw forbidden(`Host ${hostName(host) || '(none)'} is not allowed for /mcp`);
  }
  if (headers.origin === undefined) return;
  const origin = headers.origin.toLowerCase();
  if (policy.allowedOrigins.includes(origin) || originHost(origin) === host) return;
  throw forbidden(`Origin ${headers.origin} is not allowed for /mcp`);
}

/** `localhost:3000` → `localhost`, `[::1]:3000` → `[::1]`. */
function hostName(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
