import { describe, expect, it } from 'vitest';
import { crc32 } from './eventstream-crc32';

describe('crc32', () => {
  const ascii = (text: string) => new TextEncoder().encode(text);

  it('matches the standard check value and the empty input', () => {
    expect(crc32(ascii('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
    expect(crc32(ascii('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('continues from a seed as if over the concatenation', () => {
    expect(crc32(ascii('56789'), crc32(ascii('1234')))).toBe(0xcbf43926);
  });
});
