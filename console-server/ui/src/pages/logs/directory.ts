import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { api, unwrap } from '../../api/client';
import type { Schemas } from '../../api/types';
import { useUser } from '../../auth/AuthProvider';
import { isAdmin } from '../../auth/session';
import { useAllModels } from '../models/model-queries';
import { ALL_USERS_QUERY, fetchAllUsers } from '../users/user-queries';

/**
 * Names for the ids the logs hold: the user and API-key filters take a name (with suggestions
 * from GET /api/admin/users and GET /api/admin/keys) and send the id the API filters on, and the
 * tables show a user's name and email instead of a UUID. Both lists are admins' only: for
 * anyone else the hooks fetch nothing and ids stay ids.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A filter text that names nothing: its message goes under the filter, nothing is sent. */
export class FilterError extends Error {}

/** Turns what was typed into a filter into the id the API takes; throws FilterError. */
export type Resolve = (text: string) => Promise<string>;

type User = Schemas['AdminUser'];
type AdminKey = Schemas['AdminApiKey'];

/** "Ada Lovelace <ada@example.com>": what the user filter suggests and shows. */
export const userLabel = (user: Pick<User, 'display_name' | 'email'>): string =>
  `${user.display_name} <${user.email}>`;

/** "ci key (sluice-AbCd…) — ada@example.com": a key's name alone need not be unique. */
export const keyLabel = (key: Pick<AdminKey, 'name' | 'prefix' | 'owner_email'>): string =>
  `${key.name} (${key.prefix}…) — ${key.owner_email}`;

/** The one match, or a FilterError saying there was none or more than one. */
function single<T>(matches: T[], what: string, text: string): T {
  if (matches.length === 1 && matches[0] !== undefined) return matches[0];
  if (matches.length === 0) throw new FilterError(`No ${what} matches "${text}"`);
  throw new FilterError(`${matches.length} ${what}s match "${text}": pick one from the list`);
}

/** A user by suggestion, email, name or id; a UUID is sent as it is (a deleted user's rows). */
export function resolveUser(users: readonly User[], typed: string): string {
  const text = typed.trim();
  if (UUID.test(text)) return text;
  const lower = text.toLowerCase();
  const exact = users.filter((u) => userLabel(u) === text || u.email.toLowerCase() === lower);
  if (exact.length > 0) return single(exact, 'user', text).id;
  return single(
    users.filter((u) => u.display_name.toLowerCase() === lower),
    'user',
    text,
  ).id;
}

export interface UserDirectory {
  /** Every user, as the filter suggests them. */
  suggestions: string[];
  /** "Name <email>" for an id; the id itself for a user no longer there; '' for null. */
  label(id: string | null): string;
  resolve: Resolve;
}

export function useUserDirectory(): UserDirectory {
  const client = useQueryClient();
  const admin = isAdmin(useUser());
  // Every user, so a name resolves whichever page of the list it is on.
  const users = useQuery({ queryKey: ALL_USERS_QUERY, queryFn: fetchAllUsers, enabled: admin });
  const byId = new Map((users.data ?? []).map((u) => [u.id, u]));
  return {
    suggestions: (users.data ?? []).map(userLabel),
    label: (id) => {
      if (id === null) return '';
      const user = byId.get(id);
      return user ? userLabel(user) : id;
    },
    resolve: async (text) =>
      resolveUser(await client.fetchQuery({ queryKey: ALL_USERS_QUERY, queryFn: fetchAllUsers }), text),
  };
}

/** A key by suggestion, exact name or prefix (any owner, revoked ones too), or id. */
export function resolveKey(keys: readonly AdminKey[], typed: string, known: ReadonlyMap<string, string>) {
  const text = typed.trim();
  if (UUID.test(text)) return text;
  const picked = known.get(text);
  if (picked) return picked;
  const byLabel = keys.filter((k) => keyLabel(k) === text);
  if (byLabel.length > 0) return single(byLabel, 'API key', text).id;
  const byPrefix = keys.filter((k) => k.prefix === text || `${k.prefix}…` === text);
  if (byPrefix.length > 0) return single(byPrefix, 'API key', text).id;
  return single(
    keys.filter((k) => k.name === text),
    'API key',
    text,
  ).id;
}

export interface KeyDirectory {
  /** Keys whose name, prefix or owner email contains what is typed (the first 20). */
  suggestions: string[];
  resolve: Resolve;
}

const KEY_SUGGESTIONS = 20;

/** Suggestions follow `typed` (debounced); resolving searches the admin key list for it. */
export function useKeyDirectory(typed: string): KeyDirectory {
  const admin = isAdmin(useUser());
  const [q] = useDebouncedValue(typed.trim(), 250);
  // Labels seen in suggestions, so a picked one resolves even after the search moved on.
  const known = useRef(new Map<string, string>());
  const search = (text: string, limit: number) =>
    unwrap(
      api.GET('/api/admin/keys', {
        params: { query: { limit, ...(text ? { q: text } : {}) } },
      }),
    );
  const keys = useQuery({
    queryKey: ['admin-keys', 'suggest', q],
    queryFn: () => search(q, KEY_SUGGESTIONS),
    placeholderData: (previous) => previous,
    enabled: admin,
  });
  for (const key of keys.data ?? []) known.current.set(keyLabel(key), key.id);
  return {
    suggestions: (keys.data ?? []).map(keyLabel),
    resolve: async (text) => {
      const trimmed = text.trim();
      if (UUID.test(trimmed) || known.current.has(trimmed)) return resolveKey([], trimmed, known.current);
      // A label holds the name first; the list's q matches names, prefixes and owner emails.
      const name = trimmed.replace(/ \([^()]*…\) — [^ ]+$/u, '');
      if (name.length > 200) throw new FilterError(`No API key matches "${trimmed}"`);
      const [active, revoked] = await Promise.all([
        search(name, 200),
        unwrap(api.GET('/api/admin/keys', { params: { query: { limit: 200, q: name, status: 'revoked' } } })),
      ]);
      return resolveKey([...active, ...revoked], trimmed, known.current);
    },
  };
}

/** Every model name for the model filter's suggestions (GET /api/admin/models, page by page). */
export function useModelSuggestions(): string[] {
  const models = useAllModels(isAdmin(useUser()));
  return (models.data ?? []).map((m) => m.name).sort();
}
