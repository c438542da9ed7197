/**
 * An error of the authorization server, in the shape RFC 6749 § 5.2 gives its token endpoint
 * (and RFC 7591 § 3.2.2 its registration endpoint): `{error, error_description}`.
 */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404,
    readonly code: string,
    description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
export const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);
export const invalidClient = (description: string) => new OAuthError(401, 'invalid_client', description);
