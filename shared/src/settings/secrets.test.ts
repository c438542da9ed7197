import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../secrets/secret-box';
import { defaultSettings, mergeSettings } from './definitions';
import { revealSecretSetting, sealSecretSettings } from './secrets';

describe('secret settings at rest', () => {
  it('seal secrets only, leave "unset" alone, and reveal what was sealed', async () => {
    const box = await createSecretBox('22'.repeat(32));
    const sealed = await sealSecretSettings(
      [
        { key: 'oidc_client_secret', value: 'hunter2' },
        { key: 'oidc_client_id', value: 'visible' },
      ],
      box,
    );
    expect(sealed[0]?.value).toMatch(/^v1\./);
    expect(sealed[1]).toEqual({ key: 'oidc_client_id', value: 'visible' });
    const values = mergeSettings([{ key: 'oidc_client_secret', value: sealed[0]?.value }]);
    expect(await revealSecretSetting(values, 'oidc_client_secret', box)).toBe('hunter2');
    expect(await sealSecretSettings([{ key: 'oidc_client_secret', value: '' }], box)).toEqual([
      { key: 'oidc_client_secret', value: '' },
    ]);
    expect(await revealSecretSetting(defaultSettings(), 'oidc_client_secret', box)).toBe('');
    await expect(revealSecretSetting(values, 'oidc_client_id', box)).rejects.toThrow(TypeError);
  });
});
