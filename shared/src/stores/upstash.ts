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

/**
 * The hot path's client: replies as Redis gave them (no JSON parsing of every string, no
 * base64 round trip), no auto-pipelining (its owner batches explicitly, stores/coalescer.ts).
 * Every value it reads is UTF-8 text (counters, versions, JSON the gateway wrote).
 */
export function createRawUpstash(config: UpstashConfig): Redis {
  return new Redis({
    url: config.url,
    token: config.token,
    automaticDeserialization: false,
    responseEncoding: false,
    // The client's default is on, and it puts a Proxy in front of every property read.
    enableAutoPipelining: false,
    enableTelemetry: false,
    retry: false,
    signal: () => AbortSignal.timeout(config.timeoutMs),
  });
}
