import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StackSecrets {
  SLUICE_JWT_SECRET: string;
  SLUICE_ENCRYPTION_KEY: string;
}

/**
 * Secrets from the environment when given; otherwise generated once and kept in the
 * git-ignored data directory, so tokens and encrypted values survive restarts.
 */
export function loadOrCreateSecrets(dataDir: string, env: NodeJS.ProcessEnv): StackSecrets {
  const file = join(dataDir, 'secrets.json');
  let stored: Partial<StackSecrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<StackSecrets>;
  const secrets: StackSecrets = {
    SLUICE_JWT_SECRET:
      env.SLUICE_JWT_SECRET ?? stored.SLUICE_JWT_SECRET ?? randomBytes(48).toString('base64url'),
    SLUICE_ENCRYPTION_KEY:
      env.SLUICE_ENCRYPTION_KEY ?? stored.SLUICE_ENCRYPTION_KEY ?? randomBytes(32).toString('base64url'),
  };
  if (!env.SLUICE_JWT_SECRET || !env.SLUICE_ENCRYPTION_KEY) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify({ ...stored, ...secrets }, null, 2), { mode: 0o600 });
  }
  return secrets;
}
