import { describe, expect, it } from 'vitest';
import { toBase64Url } from '../util/encoding';
import { createSecretBox, secretBoxFromKey } from './secret-box';

const KEY = toBase64Url(new Uint8Array(32).fill(7));

describe('secret box (AES-256-GCM)', () => {
  it('round-trips and never repeats ciphertext', async () => {
    const box = await createSecretBox(KEY);
    const a = await box.encrypt('sk-live-secret ✓');
    const b = await box.encrypt('sk-live-secret ✓');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1.')).toBe(true);
    expect(a).not.toContain('sk-live');
    expect(await box.decrypt(a)).toBe('sk-live-secret ✓');
  });

  it('rejects tampered ciphertext and other keys', async () => {
    const box = await createSecretBox(KEY);
    const sealed = await box.encrypt('value');
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    await expect(box.decrypt(tampered)).rejects.toThrow();
    const other = await createSecretBox('ab'.repeat(32));
    await expect(other.decrypt(sealed)).rejects.toThrow();
    await expect(box.decrypt('v0.x.y')).rejects.toThrow('unsupported');
  });

  it('takes a key of the caller and a prefix of its own, refusing values without it', async () => {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    const box = secretBoxFromKey(key, 'sluice-r1.');
    const sealed = await box.encrypt('thinking');
    expect(sealed).toMatch(/^sluice-r1\.[\w-]+\.[\w-]+$/);
    expect(await box.decrypt(sealed)).toBe('thinking');
    await expect(box.decrypt(`v1.${sealed.slice('sluice-r1.'.length)}`)).rejects.toThrow('unsupported');
    await expect(box.decrypt('sluice-r1.abc')).rejects.toThrow('unsupported');
  });

  it('accepts hex keys and refuses keys that are not 32 bytes', async () => {
    await expect(createSecretBox('00'.repeat(32))).resolves.toBeDefined();
    await expect(createSecretBox('c2hvcnQ')).rejects.toThrow('32 bytes');
  });
});
