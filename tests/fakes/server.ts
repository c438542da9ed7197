/**
 * Fake upstream model providers for tests: one in-process HTTP server impersonating all six
 * provider types the gateway talks to, each under its own path prefix and speaking the
 * vendor's real wire format (streams included). Answers are deterministic; see behaviour.ts
 * for what the "model" says and context.ts for the failure scenarios named by the model.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleAnthropic } from './anthropic';
import { FAKE_BEDROCK_CREDENTIALS, handleBedrock } from './bedrock';
import type { FakeContext, Observation, Vendor } from './context';
import { handleGoogle } from './google';
import { createFakeMemory, type FakeMemory } from './memory';
import { handleAzure, handleOpenAiCompatible } from './openai-routes';

export { FAKE_BEDROCK_CREDENTIALS } from './bedrock';
export type { Vendor } from './context';

export const VENDORS: readonly Vendor[] = ['openai', 'azure', 'custom', 'anthropic', 'google', 'bedrock'];

export interface RecordedRequest {
  vendor: Vendor;
  method: string;
  /** As sent, percent-encoding included, without the query. */
  path: string;
  query: URLSearchParams;
  /** Lower-cased names (authorization included). */
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when the body was not JSON (undefined when empty). */
  body: unknown;
  /** What the fake made of it: its status, answer, and the reasoning it verified (context.ts). */
  observed: Observation;
}

export interface FakeUpstreams {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** The `base_url` to store on a provider of this type. */
  baseUrlFor(vendor: Vendor): string;
  /** The credential to store on a provider of this type. */
  apiKeyFor(vendor: Vendor): string;
  /** Provider `config` the adapter needs (bedrock: region; azure: api_version), else `{}`. */
  configFor(vendor: Vendor): Record<string, unknown>;
  close(): Promise<void>;
}

export const FAKE_AZURE_API_VERSION = '2024-10-21';

/** The credential each fake accepts. Bedrock's is `ACCESS_KEY_ID:SECRET_ACCESS_KEY`. */
export const FAKE_API_KEYS: Readonly<Record<Vendor, string>> = {
  openai: 'sk-fake-openai-0001',
  azure: 'fake-azure-api-key-0001',
  custom: 'sk-fake-custom-0001',
  anthropic: 'sk-ant-fake-anthropic-0001',
  google: 'AIzaFakeGoogleApiKey0001',
  bedrock: `${FAKE_BEDROCK_CREDENTIALS.accessKeyId}:${FAKE_BEDROCK_CREDENTIALS.secretAccessKey}`,
};

/**
 * What each vendor answers a wrong credential with, as the real services do: 401 for the
 * OpenAI family and Anthropic, Gemini's 400 INVALID_ARGUMENT (reason API_KEY_INVALID), and
 * AWS's 403 (UnrecognizedClientException / InvalidSignatureException).
 */
export const WRONG_KEY_STATUS: Readonly<Record<Vendor, number>> = {
  openai: 401,
  azure: 401,
  custom: 401,
  anthropic: 401,
  google: 400,
  bedrock: 403,
};

/** The part each adapter appends its own paths to. */
const BASE_PATHS: Readonly<Record<Vendor, string>> = {
  openai: '/openai/v1',
  azure: '/azure',
  custom: '/custom/v1',
  anthropic: '/anthropic',
  google: '/google',
  bedrock: '/bedrock',
};

/** The provider `config` a Bedrock provider needs to reach the fake (the SigV4 region). */
export function bedrockConfigFor(): Record<string, unknown> {
  return { region: FAKE_BEDROCK_CREDENTIALS.region };
}

export function configFor(vendor: Vendor): Record<string, unknown> {
  if (vendor === 'bedrock') return bedrockConfigFor();
  if (vendor === 'azure') return { api_version: FAKE_AZURE_API_VERSION };
  return {};
}

const HANDLERS: Readonly<Record<Vendor, (ctx: FakeContext) => Promise<void>>> = {
  openai: handleOpenAiCompatible,
  custom: handleOpenAiCompatible,
  azure: handleAzure,
  anthropic: handleAnthropic,
  google: handleGoogle,
  bedrock: handleBedrock,
};

const isVendor = (value: string | undefined): value is Vendor => VENDORS.some((vendor) => vendor === value);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Aborted when the connection closes before the response is complete. */
function abortSignalFor(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  requests: RecordedRequest[],
  memory: FakeMemory,
): Promise<void> {
  const signal = abortSignalFor(res);
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  const rawPath = queryAt < 0 ? target : target.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : target.slice(queryAt + 1));
  const rawBody = await readBody(req);
  const body = parseBody(rawBody);
  const headers = headersOf(req);
  const vendor = rawPath.split('/')[1];
  if (!isVendor(vendor)) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: `No fake upstream under ${rawPath}; use /<vendor>/… (${VENDORS.join(', ')})` }),
    );
    return;
  }
  const method = req.method ?? 'GET';
  const observed: Observation = { verifiedReasoning: 0 };
  requests.push({ vendor, method, path: rawPath, query, headers, body, observed });
  const apiKey = FAKE_API_KEYS[vendor];
  const ctx = { vendor, req, res, rawPath, query, headers, rawBody, body, apiKey, signal, memory, observed };
  await HANDLERS[vendor](ctx);
}

function failInternally(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: `fake upstream crashed: ${String(error)}` }));
}

export async function startFakeUpstreams(options: { port?: number } = {}): Promise<FakeUpstreams> {
  const requests: RecordedRequest[] = [];
  const memory = createFakeMemory();
  const server = createServer((req, res) => {
    handle(req, res, requests, memory).catch((error: unknown) => failInternally(res, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    requests,
    baseUrlFor: (vendor) => `${url}${BASE_PATHS[vendor]}`,
    apiKeyFor: (vendor) => FAKE_API_KEYS[vendor],
    configFor,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
