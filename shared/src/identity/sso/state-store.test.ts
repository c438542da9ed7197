import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TAKE_SCRIPT } from './state-store';

describe('single-use take script', () => {
  it('has the SHA-1 of its source (EVALSHA finds it)', () => {
    expect(createHash('sha1').update(TAKE_SCRIPT.source).digest('hex')).toBe(TAKE_SCRIPT.sha1);
  });
});
