import { AppError } from '../../http/app-error';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * A Bedrock route's secret is `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]` in the one
 * `api_key` field every provider has. None of the three parts can contain `:` (key ids are
 * upper-case alphanumerics, secrets and session tokens base64), so a plain split is exact.
 * The error never quotes the value.
 */
export function parseAwsCredentials(apiKey: string): AwsCredentials {
  const parts = apiKey.trim().split(':');
  const [accessKeyId, secretAccessKey, sessionToken] = parts;
  if (parts.length < 2 || parts.length > 3 || !accessKeyId || !secretAccessKey || sessionToken === '') {
    throw new AppError(
      502,
      'Bedrock provider credential must be ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]',
      {
        type: 'upstream_error',
      },
    );
  }
  return sessionToken === undefined
    ? { accessKeyId, secretAccessKey }
    : { accessKeyId, secretAccessKey, sessionToken };
}
