/**
 * The console's list endpoints as timed cases, read from its own OpenAPI document: every GET
 * whose path has no parameter, called as an admin with no query. Left out, and said so: those
 * with a required query parameter and the browser redirects (an operation documenting a 3xx),
 * which list nothing. Then the key views at scale: the owner's own keys, and the admin's key
 * search by owner, by name and for nothing (every row looked at).
 */
import { bearer, httpAnswer } from './http-answer';
import type { TimedCase } from './timed-cases';

interface Operation {
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  responses?: Record<string, unknown>;
}

export interface ListEndpoints {
  paths: string[];
  /** `path: why` for the GETs without path parameters that are not called. */
  skipped: string[];
}

/** The GETs of an OpenAPI document that list something without being told what. */
export function listEndpoints(document: {
  paths?: Record<string, Record<string, Operation>>;
}): ListEndpoints {
  const paths: string[] = [];
  const skipped: string[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const get = operations.get;
    if (!get || path.includes('{')) continue;
    const required = (get.parameters ?? []).filter((p) => p.in === 'query' && p.required);
    const redirects = Object.keys(get.responses ?? {}).some((status) => status.startsWith('3'));
    if (required.length > 0) skipped.push(`${path}: required ${required.map((p) => p.name).join(', ')}`);
    else if (redirects) skipped.push(`${path}: a browser redirect`);
    else paths.push(path);
  }
  return { paths, skipped };
}

export interface ConsoleTokens {
  admin: string;
  owner: string;
}

export interface KeySearches {
  ownerEmail: string;
  /** A key name held by one key. */
  keyName: string;
  ownerKeys: number;
}

export async function consoleCases(
  consoleUrl: string,
  tokens: ConsoleTokens,
  searches: KeySearches,
): Promise<{ cases: TimedCase[]; skipped: string[] }> {
  const res = await fetch(`${consoleUrl}/api/openapi.json`, { headers: bearer(tokens.admin) });
  if (!res.ok) throw new Error(`GET /api/openapi.json: ${res.status}`);
  const { paths, skipped } = listEndpoints(await res.json());
  const get = (path: string, token: () => string) => () =>
    httpAnswer(`${consoleUrl}${path}`, { headers: bearer(token()) });
  const asAdmin = () => tokens.admin;
  const cases: TimedCase[] = paths.map((path) => ({
    group: 'console',
    name: `GET ${path}`,
    run: get(path, asAdmin),
  }));
  const search = (q: string) => `/api/admin/keys?q=${encodeURIComponent(q)}`;
  cases.push(
    {
      group: 'console',
      name: `GET /api/keys as the owner of ${searches.ownerKeys.toLocaleString('en-US')} keys`,
      run: get('/api/keys', () => tokens.owner),
    },
    { group: 'console', name: 'search keys by owner email', run: get(search(searches.ownerEmail), asAdmin) },
    { group: 'console', name: 'search keys by a key name', run: get(search(searches.keyName), asAdmin) },
    { group: 'console', name: 'search keys matching none', run: get(search('no-such-key-name'), asAdmin) },
  );
  return { cases, skipped };
}
