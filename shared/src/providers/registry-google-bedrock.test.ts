import { describe, expect, it } from 'vitest';
import { googleBedrockProviders } from './registry-google-bedrock';

describe('Gemini and Bedrock registry', () => {
  it('keys each adapter by its own provider type', () => {
    expect(Object.keys(googleBedrockProviders).sort()).toEqual(['bedrock', 'google']);
    for (const [key, adapter] of Object.entries(googleBedrockProviders)) expect(adapter.type).toBe(key);
  });
});
