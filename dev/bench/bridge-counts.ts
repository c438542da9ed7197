/**
 * The store bridge's own request counts (self-host/bridge/counts.ts), read before and after a
 * run: how many HTTP round trips the apps made to Redis (Upstash REST) and to Postgres (Neon
 * HTTP), with the Redis commands and SQL statements they carried. No proxy sits in the apps'
 * path, so counting adds no latency. The console's requests count too (it idles under load).
 */
import { BRIDGE_COUNTS_PATH, type BridgeCounts } from '../../self-host/bridge/counts';

export type { BridgeCounts } from '../../self-host/bridge/counts';

export interface BridgeAccess {
  /** The bridge's Upstash URL and token, as the apps were given them. */
  url: string;
  token: string;
}

export async function readBridgeCounts(access: BridgeAccess): Promise<BridgeCounts> {
  const res = await fetch(`${access.url}${BRIDGE_COUNTS_PATH}`, {
    headers: { authorization: `Bearer ${access.token}` },
  });
  if (!res.ok) throw new Error(`bridge counts: ${res.status} ${await res.text()}`);
  return (await res.json()) as BridgeCounts;
}

/** What the apps asked of the bridge between two readings, per request of the run. */
export function bridgePerRequest(before: BridgeCounts, after: BridgeCounts, requests: number): BridgeCounts {
  const per = (key: keyof BridgeCounts) => (requests > 0 ? (after[key] - before[key]) / requests : 0);
  return {
    upstash_requests: per('upstash_requests'),
    redis_commands: per('redis_commands'),
    sql_requests: per('sql_requests'),
    sql_statements: per('sql_statements'),
  };
}
