/** What a load generator sends to one target in one mode, and what it measured. */
export interface PeerRequest {
  url: string;
  /** Authorization and any routing headers of the target (Content-Type and Accept are added). */
  headers: Record<string, string>;
  /** The JSON request body, on disk for wrk. */
  bodyFile: string;
  stream: boolean;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Connection errors, resets and timeouts. */
  errors: number;
  non2xx: number;
  /** Fixed rate only: how late the 99th percentile send left against its schedule. */
  sendLagP99Ms: number | null;
}
