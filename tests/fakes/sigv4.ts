/**
 * Server-side AWS Signature Version 4 check, as AWS front ends do it for non-S3 services:
 * the canonical request is rebuilt from what arrived on the wire (path segments decoded and
 * URI-encoded twice, the payload hashed here) and the signature recomputed with the secret.
 */
import { createHash, createHmac } from 'node:crypto';

export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
}

export interface SignedRequest {
  method: string;
  /** The path exactly as sent, percent-encoding included. */
  rawPath: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  rawBody: string;
}

export interface SigV4Failure {
  /** AWS exception name (`x-amzn-ErrorType`). */
  exception: string;
  status: number;
  message: string;
}

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;
const MAX_SKEW_MS = 15 * 60 * 1000;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string): Buffer =>
  createHmac('sha256', key).update(text, 'utf8').digest();

/** RFC 3986 encoding: everything but A-Z a-z 0-9 - . _ ~ is percent-encoded. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function canonicalUri(rawPath: string): string {
  const segments = rawPath.replace(/\/+/g, '/').split('/');
  return segments.map((segment) => uriEncode(uriEncode(decodeURIComponent(segment)))).join('/');
}

function canonicalQuery(query: URLSearchParams): string {
  const pairs = [...query].map(([key, value]) => `${uriEncode(key)}=${uriEncode(value)}`);
  return pairs.sort().join('&');
}

function amzDateMs(amzDate: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : Number.NaN;
}

function signature(request: SignedRequest, secret: string, scope: string[], signedHeaders: string): string {
  const amzDate = request.headers['x-amz-date'] ?? '';
  const headerLines = signedHeaders
    .split(';')
    .map((name) => `${name}:${(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const canonical = [
    request.method.toUpperCase(),
    canonicalUri(request.rawPath),
    canonicalQuery(request.query),
    headerLines,
    signedHeaders,
    sha256(request.rawBody),
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope.join('/'), sha256(canonical)].join('\n');
  let key: Buffer | string = `AWS4${secret}`;
  for (const part of scope) key = hmac(key, part);
  return hmac(key, stringToSign).toString('hex');
}

const invalidSignature = (message: string): SigV4Failure => ({
  exception: 'InvalidSignatureException',
  status: 403,
  message,
});

/** undefined when the request is signed by `expected`'s key for its region and service. */
export function verifySigV4(request: SignedRequest, expected: SigV4Credentials): SigV4Failure | undefined {
  const header = request.headers.authorization;
  if (header === undefined) {
    return {
      exception: 'MissingAuthenticationTokenException',
      status: 403,
      message: 'Missing Authentication Token',
    };
  }
  const parts = AUTHORIZATION.exec(header);
  const amzDate = request.headers['x-amz-date'];
  if (!parts || amzDate === undefined) {
    const message = `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters and an X-Amz-Date header. Authorization=${header.split(' ')[0]}`;
    return { exception: 'IncompleteSignatureException', status: 403, message };
  }
  const [, keyId, date, region, service, signedHeaders, sent] = parts as unknown as string[];
  if (keyId !== expected.accessKeyId) {
    const message = 'The security token included in the request is invalid.';
    return { exception: 'UnrecognizedClientException', status: 403, message };
  }
  if (region !== expected.region) return invalidSignature('Credential should be scoped to a valid region.');
  if (service !== expected.service) {
    return invalidSignature(`Credential should be scoped to correct service: '${expected.service}'.`);
  }
  const skew = Math.abs(Date.now() - amzDateMs(amzDate));
  if (!(skew <= MAX_SKEW_MS) || !amzDate.startsWith(date ?? '')) {
    return invalidSignature(`Signature expired: ${amzDate} is now earlier or later than the allowed window.`);
  }
  if (!signedHeaders?.split(';').includes('host')) return invalidSignature("'Host' must be a signed header.");
  const scope = [date ?? '', region ?? '', service ?? '', 'aws4_request'];
  if (signature(request, expected.secretAccessKey, scope, signedHeaders) !== sent) {
    return invalidSignature(
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    );
  }
  return undefined;
}
