import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '@sluice/shared/auth/sign-in';

// argon2id (algorithm 2) with OWASP's minimum recommended parameters.
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const argon2Passwords: PasswordHasher = {
  hash: (password) => hash(password, OPTIONS),
  verify: async (digest, password) => {
    try {
      return await verify(digest, password);
    } catch {
      return false;
    }
  },
};
