import * as z from 'zod';
import { dpopKeySchema } from './dpop';
import type { UpstreamTokens } from './ports';

/**
 * What a user's sealed access token holds. A connection without DPoP keeps the token alone, as
 * it always has; one with a DPoP key keeps a JSON record of the token, its type and the key, so
 * the private key is sealed with the token it goes with (and deleted with it). A token alone
 * never starts with `{`: access tokens are b64token characters (RFC 6750 § 2.1).
 */
const recordSchema = z.object({
  access_token: z.string(),
  token_type: z.enum(['Bearer', 'DPoP']),
  dpop_key: dpopKeySchema,
});

type SealedPart = Pick<UpstreamTokens, 'accessToken' | 'dpopKey' | 'tokenType'>;

/** The text to seal for these tokens' access token. */
export function accessTokenRecord(tokens: SealedPart): string {
  if (!tokens.dpopKey) return tokens.accessToken;
  return JSON.stringify({
    access_token: tokens.accessToken,
    token_type: tokens.tokenType ?? 'Bearer',
    dpop_key: tokens.dpopKey,
  } satisfies z.infer<typeof recordSchema>);
}

/** The opened text back as the token, with its key and type when it has them. */
export function openAccessTokenRecord(text: string): SealedPart {
  if (!text.startsWith('{')) return { accessToken: text, dpopKey: null, tokenType: 'Bearer' };
  const record = recordSchema.safeParse(parseJson(text));
  if (!record.success) throw new Error('a sealed upstream token record is malformed');
  return {
    accessToken: record.data.access_token,
    dpopKey: record.data.dpop_key,
    tokenType: record.data.token_type,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
