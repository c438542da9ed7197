import { describe, expect, it } from 'vitest';
import { parseDirectModelName } from './direct-name';

describe('parseDirectModelName', () => {
  it('splits provider and upstream model at the first slash', () => {
    expect(parseDirectModelName('openai-main/gpt-4o')).toEqual({
      providerName: 'openai-main',
      upstreamModel: 'gpt-4o',
    });
  });

  it('keeps later slashes in the upstream model', () => {
    expect(parseDirectModelName('router_1/meta-llama/llama-3-70b')).toEqual({
      providerName: 'router_1',
      upstreamModel: 'meta-llama/llama-3-70b',
    });
  });

  it('accepts upstream names with dots and colons', () => {
    expect(parseDirectModelName('bedrock/anthropic.claude-3-sonnet-20240229-v1:0')?.upstreamModel).toBe(
      'anthropic.claude-3-sonnet-20240229-v1:0',
    );
  });

  it.each([
    ['no slash', 'gpt-4o'],
    ['empty provider', '/gpt-4o'],
    ['empty upstream', 'openai/'],
    ['uppercase provider', 'OpenAI/gpt-4o'],
    ['provider starting with a dash', '-openai/gpt-4o'],
    ['provider with a dot', 'open.ai/gpt-4o'],
    ['provider longer than 64', `${'a'.repeat(65)}/gpt-4o`],
    ['whitespace in upstream', 'openai/gpt 4o'],
    ['upstream longer than 200', `openai/${'m'.repeat(201)}`],
    ['empty string', ''],
  ])('refuses %s', (_label, name) => {
    expect(parseDirectModelName(name)).toBeNull();
  });

  it('accepts the longest names allowed', () => {
    const name = `${'a'.repeat(64)}/${'m'.repeat(200)}`;
    expect(parseDirectModelName(name)).toEqual({
      providerName: 'a'.repeat(64),
      upstreamModel: 'm'.repeat(200),
    });
  });
});
