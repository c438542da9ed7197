import { describe, expect, it } from 'vitest';
import { openAiAnthropicAdapters } from './registry-openai-anthropic';

describe('openAiAnthropicAdapters', () => {
  it('keys each adapter by its provider type', () => {
    expect(Object.keys(openAiAnthropicAdapters).sort()).toEqual([
      'anthropic',
      'azure_openai',
      'custom',
      'openai',
    ]);
    for (const [type, adapter] of Object.entries(openAiAnthropicAdapters)) expect(adapter.type).toBe(type);
  });
});
