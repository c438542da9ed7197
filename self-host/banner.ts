export interface BannerInput {
  gatewayUrl: string;
  consoleUrl: string;
  /** How the gateway runs, e.g. "workerd serve" or "Miniflare". */
  gatewayRuntime: string;
  /** One line per store. */
  stores: string[];
  bridgePort: number;
  /** Whether the console already has its first admin (GET /api/setup/status); null: unknown. */
  initialized: boolean | null;
}

/**
 * The start-up banner of `npm start` and `npm run serve`. Its first line, `Sluice is running`,
 * is what scripts and tests wait for: it is printed once everything answers.
 */
export function stackBanner(input: BannerInput): string {
  return [
    'Sluice is running',
    `  gateway: ${input.gatewayUrl}   (model API under /v1, readiness at /health/ready; ${input.gatewayRuntime})`,
    `  web UI:  ${input.consoleUrl}/   (${webUiHint(input.initialized)})`,
    `  console: ${input.consoleUrl}   (management API under /api; start at /api/setup/status)`,
    ...input.stores.map((line) => `  ${line}`),
    `  bridge:  127.0.0.1:${input.bridgePort} (Neon and Upstash protocols in front of the stores, for the apps' drivers)`,
  ].join('\n');
}

/** A restarted stack has its admin already: the wizard is promised only to an empty one. */
function webUiHint(initialized: boolean | null): string {
  if (initialized === true) return 'open in a browser and sign in';
  if (initialized === false) return 'open in a browser; the first visit runs the setup wizard';
  return 'open in a browser';
}

/**
 * The URL to reach a server bound to `host` from this machine: a wildcard address is reached
 * on loopback, an IPv6 literal goes in brackets.
 */
export function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' || host === '[::]' ? '::1' : host;
  const bracketed = reachable.includes(':') && !reachable.startsWith('[') ? `[${reachable}]` : reachable;
  return `http://${bracketed}:${port}`;
}
