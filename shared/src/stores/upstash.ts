import { Redis } from '@upstash/redis';
import { type Breaker, NO_BREAKER, unavailable } from './breaker';

export interface UpstashConfig {
  url: string;
  token: string;
  timeoutMs: number;
  /** While open, every call fails at once (an aborted signal: fetch never starts). */
  breaker?: Breaker;
}

/** Each call's signal: its deadline, or already aborted while the breaker holds Redis for down. */
function signalFor(config: UpstashConfig): () => AbortSignal {
  const breaker = config.breaker ?? NO_BREAKER;
  return () =>
    breaker.isOpen ? AbortSignal.abort(unavailable('Redis')) : AbortSignal.timeout(config.timeoutMs);
}

/** REST client with auto-pipelining: commands issued in the same tick share one round trip. */
export function createUpstash(config: UpstashConfig): Redis {
  return new Redis({
    url: config.url,
    token: config.token,
    enableAutoPipelining: true,
    enableTelemetry: false,
    retry: false,
    signal: signalFor(config),
  });
}

/**
 * The hot path's client: replies as Redis gave them (no JSON parsing of every string, no
 * base64 round trip), no auto-pipelining (its owner batches explicitly, runtime/coalescer.ts).
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
    signal: signalFor(config),
  });
}
