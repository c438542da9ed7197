export interface BannerInput {
  /** Null when this process runs no gateway (SLUICE_SERVE=console). */
  gatewayUrl: string | null;
  /** Null when this process runs no console (SLUICE_SERVE=gateway). */
  consoleUrl: string | null;
  /** How the gateway runs, e.g. "workerd serve" or "Miniflare". */
  gatewayRuntime: string;
  /** One line per store. */
  stores: string[];
  /** Null when this process runs no store bridge (a console alone on real stores). */
  bridgePort: number | null;
  /** Whether the console already has its first admin (GET /api/setup/status); null: unknown. */
  initialized: boolean | null;
}

/**
 * The start-up banner of `npm start` and `npm run serve`. Its first line, `Sluice is running`,
 * is what scripts and tests wait for: it is printed once everything answers.
 */
export function stackBanner(input: BannerInput): string {
  const { gatewayUrl, consoleUrl } = input;
  return [
    'Sluice is running',
    ...(gatewayUrl
      ? [
          `  gateway: ${gatewayUrl}   (model API under /v1, readiness at /health/ready; ${input.gatewayRuntime})`,
        ]
      : ['  gateway: not in this process (SLUICE_SERVE=console)']),
    ...(consoleUrl
      ? [
          `  web UI:  ${consoleUrl}/   (${webUiHint(input.initialized)})`,
          `  console: ${consoleUrl}   (management API under /api; start at /api/setup/status)`,
        ]
      : ['  console: not in this process (SLUICE_SERVE=gateway)']),
    ...input.stores.map((line) => `  ${line}`),
    input.bridgePort === null
      ? '  bridge:  none (the console reaches Postgres and Redis itself)'
      : `  bridge:  127.0.0.1:${input.bridgePort} (Neon HTTP and Upstash REST in front of the stores, for the gateway's drivers)`,
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
