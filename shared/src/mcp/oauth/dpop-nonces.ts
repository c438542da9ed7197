/**
 * DPoP nonces (RFC 9449 § 8, § 9): a server may insist that proofs carry a value it handed out
 * (`DPoP-Nonce`), answering a proof without it with `use_dpop_nonce`. The latest one each server
 * gave is remembered for the next proof to it, in this process only: a process that does not
 * know it yet is told again, at the cost of one retried request.
 */
const MAX_SERVERS = 1000;

export class DpopNonces {
  readonly #latest = new Map<string, string>();

  /** The latest nonce of the server at `endpoint` (its token endpoint, or its MCP endpoint). */
  get(endpoint: string): string | null {
    return this.#latest.get(endpoint) ?? null;
  }

  /** Keeps the nonce a response carries (an answer of any status may bring a new one). */
  note(endpoint: string, response: Response): void {
    const nonce = response.headers.get('dpop-nonce');
    if (!nonce) return;
    this.#latest.delete(endpoint);
    this.#latest.set(endpoint, nonce);
    if (this.#latest.size > MAX_SERVERS) this.#latest.delete(this.#latest.keys().next().value as string);
  }
}

/** The nonces of every server this process talks to. */
export const dpopNonces = new DpopNonces();

/** A resource server's refusal for want of a nonce: 401, `DPoP error="use_dpop_nonce"`, and the nonce. */
export function resourceWantsNonce(response: Response): boolean {
  const challenge = response.headers.get('www-authenticate') ?? '';
  return (
    response.status === 401 &&
    response.headers.has('dpop-nonce') &&
    /\bDPoP\b/i.test(challenge) &&
    /error\s*=\s*"?use_dpop_nonce/i.test(challenge)
  );
}

/** An authorization server's refusal for want of a nonce: 400 `{error: "use_dpop_nonce"}` and the nonce. */
export function tokenEndpointWantsNonce(response: Response, error: string | undefined): boolean {
  return response.status === 400 && error === 'use_dpop_nonce' && response.headers.has('dpop-nonce');
}
