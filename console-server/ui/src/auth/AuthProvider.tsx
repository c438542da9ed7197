import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import type { components } from '../api/schema.gen';
import { type Session, sessionStore } from './session';

type TokenResponse = components['schemas']['TokenResponse'];

interface AuthValue {
  session: Session | null;
  signIn(tokens: TokenResponse): void;
  signOut(): void;
}

const AuthContext = createContext<AuthValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState(sessionStore.get());
  const queryClient = useQueryClient();
  useEffect(() => sessionStore.subscribe(setSession), []);
  const signIn = useCallback((t: TokenResponse) => {
    sessionStore.set({ access_token: t.access_token, refresh_token: t.refresh_token, user: t.user });
  }, []);
  const signOut = useCallback(() => {
    sessionStore.set(null);
    queryClient.clear(); // the next user must not see the previous user's cached data
  }, [queryClient]);
  return <AuthContext.Provider value={{ session, signIn, signOut }}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}

/** The signed-in user; only call inside the signed-in layout. */
export function useUser(): Session['user'] {
  const { session } = useAuth();
  if (!session) throw new Error('useUser without a session');
  return session.user;
}
