import { describe, expect, it } from 'vitest';
import { bedrockModelTraits } from './models';

describe('Bedrock model traits', () => {
  it.each([
    // id, claude, thinking, cachePoints, toolCachePoints, hourLongCache
    ['anthropic.claude-sonnet-4-5-20250929-v1:0', true, true, true, true, true],
    ['us.anthropic.claude-opus-4-6-v1', true, true, true, true, true],
    ['global.anthropic.claude-haiku-4-5-20251001-v1:0', true, true, true, true, true],
    ['eu.anthropic.claude-sonnet-4-20250514-v1:0', true, true, true, true, false],
    ['anthropic.claude-opus-4-1-20250805-v1:0', true, true, true, true, false],
    ['anthropic.claude-3-7-sonnet-20250219-v1:0', true, true, true, true, false],
    ['anthropic.claude-3-5-haiku-20241022-v1:0', true, false, true, true, false],
    ['anthropic.claude-3-5-sonnet-20240620-v1:0', true, false, true, true, false],
    ['anthropic.claude-3-haiku-20240307-v1:0', true, false, false, false, false],
    ['anthropic.claude-v2:1', true, false, false, false, false],
    [
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      true,
      true,
      true,
      true,
      true,
    ],
    ['amazon.nova-pro-v1:0', false, false, true, false, false],
    ['us.amazon.nova-premier-v1:0', false, false, true, false, false],
    ['meta.llama3-3-70b-instruct-v1:0', false, false, false, false, false],
    ['us.deepseek.r1-v1:0', false, false, false, false, false],
    [
      'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3',
      false,
      false,
      false,
      false,
      false,
    ],
  ])('%s', (id, claude, thinking, cachePoints, toolCachePoints, hourLongCache) => {
    expect(bedrockModelTraits(id)).toEqual({ claude, thinking, cachePoints, toolCachePoints, hourLongCache });
  });
});
