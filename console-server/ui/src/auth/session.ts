import type { components } from '../api/schema.gen';

export type SessionUser = components['schemas']['UserView'];
export type TokenPair = components['schemas']['TokenPair'];

export interface Session {
  access_token: string;
  refresh_token: string;
  user: SessionUser;
}

const STORAGE_KEY = 'sluice.session';
type Listener = (session: Session | null) => void;
const listeners = new Set<Listener>();

function read(): Session | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

let current: Session | null = read();

/** The signed-in session, kept in localStorage so a reload keeps the page and the sign-in. */
export const sessionStore = {
  get: (): Session | null => current,
  set(next: Session | null): void {
    current = next;
    if (next) localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    else localStorage.removeItem(STORAGE_KEY);
    for (const listener of listeners) listener(next);
  },
  /** A refresh answers a new pair without the user; the user stays. */
  replaceTokens(pair: TokenPair): void {
    if (current) this.set({ ...current, access_token: pair.access_token, refresh_token: pair.refresh_token });
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const isAdmin = (user: SessionUser | undefined | null): boolean => user?.role === 'admin';
