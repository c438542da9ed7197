import { describe, it } from 'vitest';
import { expectSha1OfSource } from '../../../../test/stores/lua-sha1';
import { TAKE_SCRIPT } from './state-store';

describe('single-use take script', () => {
  it('has the SHA-1 of its source (EVALSHA finds it)', () => {
    expectSha1OfSource(TAKE_SCRIPT);
  });
});
