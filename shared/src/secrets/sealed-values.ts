import { withDeadline } from '../util/deadline';
import { createSecretBox, type SecretBox } from './secret-box';

/** Most opened values an isolate holds; past it they are forgotten all at once. */
const MAX_OPEN = 1000;

/**
 * Opens each sealed value (provider keys, secret settings) once per isolate; a rotated key is a
 * new sealed value. Once open, a value is served from memory; while it is being opened, a
 * caller waits with a timer of its own (workerd cancels a request that only waits on another's
 * work), and past `timeoutMs` gets a DeadlineError. A value that fails to open is tried again
 * by the next caller.
 */
export function sealedValueOpener(
  encryptionKey: string,
  timeoutMs: number,
): (sealed: string) => Promise<string> {
  let secretBox: Promise<SecretBox> | undefined;
  const open = new Map<string, string>();
  const opening = new Map<string, Promise<string>>();
  return (sealed) => {
    const known = open.get(sealed);
    if (known !== undefined) return Promise.resolve(known);
    let value = opening.get(sealed);
    if (!value) {
      secretBox ??= createSecretBox(encryptionKey);
      value = secretBox.then((box) => box.decrypt(sealed));
      opening.set(sealed, value);
      value.then(
        (key) => {
          if (open.size >= MAX_OPEN) open.clear();
          open.set(sealed, key);
          opening.delete(sealed);
        },
        () => opening.delete(sealed),
      );
    }
    return withDeadline(value, timeoutMs, 'provider key');
  };
}
