import * as z from 'zod';
import { invalidClient, invalidRequest, OAuthError } from './errors';

/** A client of the authorization server, registered or known by its metadata document. */
export interface OAuthClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  source: 'registered' | 'metadata_document';
  fetchedAt: Date | null;
}

export interface ClientStore {
  find(clientId: string): Promise<OAuthClient | null>;
  save(client: OAuthClient): Promise<void>;
}

/** Fetches a client ID metadata document (the console: fetch with a deadline and a size cap). */
export type FetchDocument = (url: string) => Promise<unknown>;

/** A metadata document is fetched again after this long. */
const DOCUMENT_TTL_MS = 3_600_000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Where a client may be sent back to (RFC 8252, OAuth 2.1 § 2.3.1): https, http on a loopback
 * address (native apps, CLIs), or a private-use scheme of a native app (`com.example.app:/cb`).
 * Never a fragment.
 */
export function acceptableRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash !== '') return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol);
}

const redirectUris = z
  .array(
    z
      .string()
      .max(2048)
      .refine(acceptableRedirectUri, 'must be https, http on a loopback address, or a private-use scheme'),
  )
  .min(1)
  .max(20);

/** RFC 7591 § 2: what Sluice reads of a registration; the rest is accepted and ignored. */
export const registrationSchema = z
  .object({
    redirect_uris: redirectUris,
    client_name: z.string().min(1).max(200).optional(),
    token_endpoint_auth_method: z.enum(['none']).optional(),
    grant_types: z.array(z.string()).optional(),
    response_types: z.array(z.string()).optional(),
  })
  .passthrough();

export async function registerClient(body: unknown, store: ClientStore, now: Date) {
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    const code = field.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata';
    throw new OAuthError(400, code, `${field}: ${issue?.message ?? 'invalid'}`);
  }
  const client: OAuthClient = {
    clientId: crypto.randomUUID(),
    clientName: parsed.data.client_name ?? 'Unnamed client',
    redirectUris: parsed.data.redirect_uris,
    source: 'registered',
    fetchedAt: null,
  };
  await store.save(client);
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: client.clientName,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

const documentSchema = z
  .object({
    client_id: z.string(),
    client_name: z.string().min(1).max(200).optional(),
    redirect_uris: redirectUris,
  })
  .passthrough();

/** A client ID that is a metadata document's URL: https, or http on loopback (local tools). */
export function isMetadataDocumentId(clientId: string): boolean {
  try {
    const url = new URL(clientId);
    return url.protocol === 'https:'
      ? url.pathname !== '/'
      : url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * The client behind a client_id: registered here, or described by the metadata document at
 * its URL (fetched, checked to name itself, kept for an hour).
 */
export async function resolveClient(
  clientId: string,
  store: ClientStore,
  fetchDocument: FetchDocument,
  now: Date,
): Promise<OAuthClient> {
  const known = await store.find(clientId);
  const fresh =
    known &&
    (known.source === 'registered' || now.getTime() - (known.fetchedAt?.getTime() ?? 0) < DOCUMENT_TTL_MS);
  if (known && fresh) return known;
  if (!isMetadataDocumentId(clientId)) throw invalidClient('Unknown client_id');
  let document: unknown;
  try {
    document = await fetchDocument(clientId);
  } catch (error) {
    throw invalidClient(`The client's metadata document could not be fetched: ${String(error)}`);
  }
  const parsed = documentSchema.safeParse(document);
  if (!parsed.success)
    throw invalidClient(`The client's metadata document is invalid: ${parsed.error.issues[0]?.message}`);
  if (parsed.data.client_id !== clientId)
    throw invalidClient('The metadata document names another client_id');
  const client: OAuthClient = {
    clientId,
    clientName: parsed.data.client_name ?? new URL(clientId).host,
    redirectUris: parsed.data.redirect_uris,
    source: 'metadata_document',
    fetchedAt: now,
  };
  await store.save(client);
  return client;
}

/**
 * The redirect URI a request names must be one the client registered, exactly; a loopback
 * one may differ in port only (RFC 8252 § 7.3: native apps pick a free port each time).
 */
export function registeredRedirect(client: OAuthClient, requested: string | undefined): string {
  if (requested === undefined) {
    if (client.redirectUris.length === 1 && client.redirectUris[0]) return client.redirectUris[0];
    throw invalidRequest('redirect_uri is required');
  }
  const matches = client.redirectUris.some((uri) => uri === requested || sameLoopbackButPort(uri, requested));
  if (!matches) throw invalidRequest('redirect_uri is not registered for this client');
  return requested;
}

function sameLoopbackButPort(registered: string, requested: string): boolean {
  try {
    const a = new URL(registered);
    const b = new URL(requested);
    return (
      a.protocol === 'http:' &&
      LOOPBACK_HOSTS.has(a.hostname) &&
      a.hostname === b.hostname &&
      a.protocol === b.protocol &&
      a.pathname === b.pathname &&
      a.search === b.search
    );
  } catch {
    return false;
  }
}
