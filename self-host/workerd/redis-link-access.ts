import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parseRedisUrl } from '@sluice/shared/stores';

/**
 * The outbound `allow` entries the Redis link needs: the addresses REDIS_URL's host has now,
 * each as a single-address CIDR. workerd checks a socket's address, not its name, against the
 * gateway's allow list; adding Redis's own addresses (not "private" as a whole) keeps every
 * other private address out of reach of the Worker's fetch().
 */
export async function redisLinkAllow(redisUrl: string): Promise<string[]> {
  const { host } = parseRedisUrl(redisUrl);
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  return [...new Set(addresses)].map((address) => `${address}/${isIP(address) === 6 ? 128 : 32}`);
}
