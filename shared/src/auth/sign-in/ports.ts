import type { Db } from '../../db/types';
import type { SecretBox } from '../../secrets/secret-box';
import type { JwtSigner } from '../console/jwt';
import type { LoginGate } from './login-gate';

/** Password hashing lives behind a port: argon2id is native code the console supplies. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** Who made the request, for audit records and attempt counting. */
export interface RequestMeta {
  ipAddress: string | null;
  userAgent: string | null;
}

/** `db` must support transactions (a pooled connection, not the HTTP driver). */
export interface IdentityDeps {
  db: Db;
  jwt: JwtSigner;
  passwords: PasswordHasher;
  attempts: LoginGate;
  secrets: SecretBox;
}
