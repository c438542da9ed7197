import { AwsV4Signer } from 'aws4fetch';
import type { UpstreamCall, UpstreamTarget } from '../../canonical/ports';
import { AppError } from '../../http/app-error';
import { toHex } from '../../util/encoding';
import { trimTrailingSlashes } from '../common/json';
import { parseAwsCredentials } from './credentials';

/**
 * Bedrock Runtime endpoint and SigV4 signing. The host is
 * `bedrock-runtime.{region}.amazonaws.com` unless the route's base URL overrides it
 * (VPC endpoints, proxies, local fakes); the region always comes from `config.region`, or
 * failing that from a standard Bedrock host in the base URL, because it is part of the
 * signature.
 */
export function bedrockRegion(target: UpstreamTarget): string {
  const configured = target.config.region;
  if (typeof configured === 'string' && configured !== '') return configured;
  const fromHost = /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(target.baseUrl)?.[1];
  if (fromHost) return fromHost;
  throw new AppError(502, 'Bedrock provider needs a region (config.region)', { type: 'upstream_error' });
}

/** `{base}/model/{modelId}`, the prefix of every Bedrock Runtime model operation. */
function modelBaseUrl(target: UpstreamTarget, region: string): string {
  const base = target.baseUrl
    ? trimTrailingSlashes(target.baseUrl)
    : `https://bedrock-runtime.${region}.amazonaws.com`;
  // Model ids contain `:` and inference-profile ARNs `/`: both must stay inside one segment.
  return `${base}/model/${encodeURIComponent(target.upstreamModel)}`;
}

export function bedrockUrl(target: UpstreamTarget, region: string, stream: boolean): string {
  return `${modelBaseUrl(target, region)}/${stream ? 'converse-stream' : 'converse'}`;
}

/** InvokeModel: the model's own body format (embeddings models have no Converse API). */
export function bedrockInvokeUrl(target: UpstreamTarget, region: string): string {
  return `${modelBaseUrl(target, region)}/invoke`;
}

/**
 * Signs a JSON POST for service `bedrock`. The body hash is also sent as
 * `x-amz-content-sha256` (AWS accepts it on every service), so a proxy or fake upstream can
 * check the body against the signature. `datetime` (YYYYMMDDTHHMMSSZ) pins time for tests.
 */
export async function signBedrockCall(
  url: string,
  body: string,
  target: UpstreamTarget,
  region: string,
  options: { stream: boolean; datetime?: string },
): Promise<UpstreamCall> {
  const credentials = parseAwsCredentials(target.apiKey);
  const bodyHash = toHex(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body))),
  );
  const signer = new AwsV4Signer({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      accept: options.stream ? 'application/vnd.amazon.eventstream' : 'application/json',
      'x-amz-content-sha256': bodyHash,
    },
    body,
    ...credentials,
    service: 'bedrock',
    region,
    datetime: options.datetime,
  });
  const signed = await signer.sign();
  const headers: Record<string, string> = {};
  signed.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { url: signed.url.toString(), init: { method: 'POST', headers, body } };
}
