import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { LuaScript } from '../../src/stores/lua-script';

/** The SHA-1 Redis names a script by (SCRIPT LOAD, EVALSHA): hex of its source's UTF-8 bytes. */
export function luaSha1(source: string): string {
  return createHash('sha1').update(source).digest('hex');
}

/** The SHA-1 written beside a script is its source's, so EVALSHA finds what EVAL would run. */
export function expectSha1OfSource(script: LuaScript): void {
  expect(luaSha1(script.source), script.name).toBe(script.sha1);
}
