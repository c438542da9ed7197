import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, generateApiKey, hashApiKey, hashPresentedKey, looksLikeApiKey } from './api-key';

describe('API keys', () => {
  it('have the sluice- prefix, 256 bits of base64url and a 12-character display prefix', async () => {
    const { key, hash, prefix } = await generateApiKey();
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(key).toMatch(/^sluice-[A-Za-z0-9_-]{43}$/);
    expect(prefix).toBe(key.slice(0, 12));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(await hashApiKey(key));
  });

  it('are unique', async () => {
    const keys = await Promise.all(Array.from({ length: 50 }, () => generateApiKey()));
    expect(new Set(keys.map((k) => k.key)).size).toBe(50);
  });

  it('hash to the known SHA-256 digest', async () => {
    expect(await hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('shape check rejects other bearer values', () => {
    expect(looksLikeApiKey('sluice-short')).toBe(false);
    expect(looksLikeApiKey(`other-${'a'.repeat(43)}`)).toBe(false);
    expect(looksLikeApiKey(`sluice-${'a'.repeat(43)}`)).toBe(true);
  });

  it('a presented key hashes as a stored one, also when remembered and past the memo bound', async () => {
    const keys = await Promise.all(Array.from({ length: 4200 }, () => generateApiKey()));
    for (const { key, hash } of keys) expect(await hashPresentedKey(key)).toBe(hash);
    for (const { key, hash } of keys.slice(-10)) expect(await hashPresentedKey(key)).toBe(hash);
    expect(await hashPresentedKey('abc')).toBe(await hashApiKey('abc'));
  });
});
