/**
 * Where to go once single sign-on is done (a consent screen, a deep link): the identity
 * provider's round trip leaves the app, so the page is kept in sessionStorage meanwhile.
 */
const KEY = 'sluice.after-sign-in';

export function rememberAfterSignIn(path: string): void {
  sessionStorage.setItem(KEY, path);
}

/** The remembered path, once; only a path on this console. */
export function takeAfterSignIn(): string | null {
  const path = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  return path?.startsWith('/') && !path.startsWith('//') ? path : null;
}
