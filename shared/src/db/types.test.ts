import { describe, expect, it } from 'vitest';
import type { Db, QueryDb } from './types';

// The compiler checks this file (npm run typecheck): the expected-error line below stops being
// an error, and typecheck fails, if a QueryDb ever offers transactions.
describe('Db and QueryDb', () => {
  it('a QueryDb has no transaction, and a Db serves wherever a QueryDb is asked for', () => {
    const statementsOnly = (db: QueryDb) => {
      // @ts-expect-error the Neon HTTP driver cannot run transactions
      const open = db.transaction;
      return open;
    };
    const fromPool = (db: Db) => statementsOnly(db);
    expect(typeof fromPool).toBe('function');
  });
});
