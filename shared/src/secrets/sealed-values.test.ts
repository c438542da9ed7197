import { afterEach, describe, expect, it, vi } from 'vitest';
import { toBase64Url } from '../util/encoding';
import { sealedValueOpener } from './sealed-values';
import { createSecretBox } from './secret-box';

const KEY = toBase64Url(new Uint8Array(32).fill(7));
const OTHER_KEY = toBase64Url(new Uint8Array(32).fill(8));

describe('sealedValueOpener', () => {
  afterEach(() => vi.restoreAllMocks());

  it('opens each sealed value once, callers at the same time included, and serves it from memory after', async () => {
    const box = await createSecretBox(KEY);
    const [a, b] = await Promise.all([box.encrypt('sk-a'), box.encrypt('sk-b')]);
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    const open = sealedValueOpener(KEY, 1_000);
    expect(await Promise.all([open(a), open(a), open(b)])).toEqual(['sk-a', 'sk-a', 'sk-b']);
    expect(await open(a)).toBe('sk-a');
    expect(decrypt).toHaveBeenCalledTimes(2);
  });

  it('rejects a value that does not open, and tries it again on the next call', async () => {
    const sealed = await (await createSecretBox(OTHER_KEY)).encrypt('elsewhere');
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    const open = sealedValueOpener(KEY, 1_000);
    await expect(open(sealed)).rejects.toThrow();
    await expect(open(sealed)).rejects.toThrow();
    expect(decrypt).toHaveBeenCalledTimes(2);
  });
});
