import { randomBytes, toBase64Url } from '../../util/encoding';

/**
 * A vendor-style opaque id (`call_…`, `msg_…`) for things the upstream does not number.
 * 18 random bytes → 24 base64url characters, which fits the `[A-Za-z0-9_-]{1,64}` id
 * patterns vendors enforce when a conversation later moves to another provider.
 */
export function randomId(prefix: string): string {
  return `${prefix}${toBase64Url(randomBytes(18))}`;
}
