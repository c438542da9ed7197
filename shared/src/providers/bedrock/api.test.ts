import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../../canonical/ports';
import type { CanonicalRequest } from '../../canonical/types';
import { toHex } from '../../util/encoding';
import { bedrockAdapter } from './adapter';
import { bedrockRegion, bedrockUrl, signBedrockCall } from './api';

const target: UpstreamTarget = {
  baseUrl: '',
  apiKey: 'AKIDEXAMPLE:wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  upstreamModel: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  config: { region: 'eu-west-1' },
};
const request: CanonicalRequest = {
  model: 'sonnet',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  stream: false,
};

const enc = new TextEncoder();
async function hmac(key: Uint8Array<ArrayBuffer> | string, data: string): Promise<Uint8Array<ArrayBuffer>> {
  const raw = typeof key === 'string' ? enc.encode(key) : key;
  const cryptoKey = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, enc.encode(data)));
}
const sha256 = async (data: string) =>
  toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', enc.encode(data))));

/** SigV4 computed from the AWS spec, independently of aws4fetch, for the call as sent. */
async function expectedSignature(url: string, headers: Record<string, string>, body: string, secret: string) {
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(headers.authorization ?? '')?.[1] ?? '';
  const { host, pathname } = new URL(url);
  const all: Record<string, string> = { ...headers, host };
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((name) => `${name}:${all[name]}\n`)
    .join('');
  // Non-S3 services sign the path URI-encoded a second time.
  const path = pathname.split('/').map(encodeURIComponent).join('/');
  const canonical = ['POST', path, '', canonicalHeaders, signedHeaders, await sha256(body)].join('\n');
  const date = headers['x-amz-date'] ?? '';
  const scope = `${date.slice(0, 8)}/eu-west-1/bedrock/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, await sha256(canonical)].join('\n');
  let key = await hmac(`AWS4${secret}`, date.slice(0, 8));
  for (const part of ['eu-west-1', 'bedrock', 'aws4_request']) key = await hmac(key, part);
  return toHex(await hmac(key, toSign));
}

describe('Bedrock endpoint and signing', () => {
  it('builds the regional URL with the model id kept in one segment', () => {
    expect(bedrockUrl(target, 'eu-west-1', false)).toBe(
      'https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse',
    );
    const arn = {
      ...target,
      upstreamModel: 'arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.meta.llama3',
    };
    expect(bedrockUrl(arn, 'eu-west-1', true)).toBe(
      'https://bedrock-runtime.eu-west-1.amazonaws.com/model/arn%3Aaws%3Abedrock%3Aeu-west-1%3A123456789012%3Ainference-profile%2Feu.meta.llama3/converse-stream',
    );
    expect(bedrockUrl({ ...target, baseUrl: 'http://127.0.0.1:9999/' }, 'eu-west-1', true)).toBe(
      'http://127.0.0.1:9999/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream',
    );
  });

  it('takes the region from config, else from a Bedrock host, else refuses', () => {
    expect(bedrockRegion(target)).toBe('eu-west-1');
    const fromHost = { ...target, config: {}, baseUrl: 'https://bedrock-runtime.ap-south-1.amazonaws.com' };
    expect(bedrockRegion(fromHost)).toBe('ap-south-1');
    expect(() => bedrockRegion({ ...target, config: {} })).toThrow(/region/);
  });

  it('signs with a SigV4 signature that matches an independent computation', async () => {
    const body = '{"messages":[{"role":"user","content":[{"text":"Hi"}]}]}';
    const url = bedrockUrl(target, 'eu-west-1', false);
    const call = await signBedrockCall(url, body, target, 'eu-west-1', {
      stream: false,
      datetime: '20250102T030405Z',
    });
    const { headers } = call.init;
    expect(call.url).toBe(url);
    expect(call.init.body).toBe(body);
    expect(headers['x-amz-date']).toBe('20250102T030405Z');
    expect(headers['x-amz-content-sha256']).toBe(await sha256(body));
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20250102\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=accept;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    const signature = /Signature=([0-9a-f]+)/.exec(headers.authorization ?? '')?.[1];
    expect(signature).toBe(
      await expectedSignature(url, headers, body, 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY'),
    );
  });

  it('adds and signs the session token when the credential has one', async () => {
    const withToken = { ...target, apiKey: `${target.apiKey}:FwoGZXIvYXdzEXAMPLETOKEN` };
    const call = await bedrockAdapter.buildRequest({ ...request, stream: true }, withToken);
    expect(call.url).toMatch(/\/converse-stream$/);
    expect(call.init.headers['x-amz-security-token']).toBe('FwoGZXIvYXdzEXAMPLETOKEN');
    expect(call.init.headers.accept).toBe('application/vnd.amazon.eventstream');
    expect(call.init.headers.authorization).toMatch(
      /SignedHeaders=accept;host;x-amz-content-sha256;x-amz-date;x-amz-security-token,/,
    );
    expect(call.init.headers.authorization).not.toContain('wJalr');
  });

  it('refuses a malformed credential without quoting it', async () => {
    const bad = { ...target, apiKey: 'only-one-part-SECRETISH' };
    await expect(bedrockAdapter.buildRequest(request, bad)).rejects.toThrow(
      /ACCESS_KEY_ID:SECRET_ACCESS_KEY/,
    );
    await expect(bedrockAdapter.buildRequest(request, bad)).rejects.not.toThrow(/SECRETISH/);
  });
});
