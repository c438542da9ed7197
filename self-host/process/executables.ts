import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Debian keeps nginx in /usr/sbin, which a normal user's PATH may not have. */
const EXTRA_DIRS = ['/usr/sbin', '/sbin', '/usr/local/sbin'];

/** The full path of an executable on PATH (or in the sbin directories), or null. */
export function findExecutable(name: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of [...path.split(delimiter), ...EXTRA_DIRS]) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}
