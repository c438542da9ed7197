/**
 * Upstream messages reach clients and logs, and adapters never see the credential itself, so
 * anything key-shaped is masked — every vendor family's shapes in every adapter's messages:
 * a route's base URL may front another vendor, and proxies echo headers verbatim. OpenAI's
 * and Anthropic's `sk-…` keys, Bearer/Basic credentials, AWS access key ids (AKIA/ASIA),
 * Google API keys (AIza…), and long opaque runs (Azure's 32-hex keys, session tokens, the
 * canonical request AWS quotes in SignatureDoesNotMatch).
 */
export function redactCredentials(text: string): string {
  return text
    .replace(/\bsk-[A-Za-z0-9_*-]{6,}/g, 'sk-[redacted]')
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
    .replace(/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, '[redacted]')
    .replace(/\bAIza[0-9A-Za-z_-]{35}\b/g, '[redacted]')
    .replace(/[A-Za-z0-9+/_-]{40,}={0,2}/g, '[redacted]')
    .replace(/\b[A-Za-z0-9]{32,}\b/g, '[redacted]');
}
