import { Redis } from '@upstash/redis';

export interface UpstashConfig {
  url: string;
  token: string;
  timeoutMs: number;
}

/** REST client with auto-pipelining: commands issued in the same tick share one round trip. */
export function createUpstash(config: UpstashConfig): Redis {
  return new Redis({
    url: config.url,
    token: config.token,
    enableAutoPipelining: true,
    enableTelemetry: false,
    retry: false,
    signal: () => AbortSignal.timeout(config.timeoutMs),
  });
}
