import { describe, expect, it } from 'vitest';
import { candidateNames, findPriceEntry, isVersionOf } from './match';
import { type PriceEntry, toPriceTable } from './types';

function entry(model: string, input = 1): PriceEntry {
  return {
    model,
    vendor: 'v',
    inputPricePerMtok: input,
    outputPricePerMtok: 2,
    cachedInputPricePerMtok: null,
    cacheWritePricePerMtok: null,
    cacheWrite1hPricePerMtok: null,
  };
}

const table = toPriceTable(
  [
    'gpt-4o',
    'gpt-4o-mini',
    'gpt-4.1',
    'o3',
    'claude-sonnet-4',
    'claude-opus-4',
    'claude-opus-4-1',
    'claude-3-5-haiku',
    'mistral-large',
    'gemini-2.5-flash',
    'gemini-2.5-flash-lite',
    'llama3-3-70b-instruct',
    'llama-3.3-70b-versatile',
    'Mixed-Case-Model',
  ].map((m) => entry(m)),
);

const matched = (name: string) => findPriceEntry(table, name)?.model ?? null;

describe('findPriceEntry', () => {
  it('matches exactly, case-insensitively', () => {
    expect(matched('gpt-4o')).toBe('gpt-4o');
    expect(matched('gpt-4o-mini')).toBe('gpt-4o-mini');
    expect(matched('GPT-4O')).toBe('gpt-4o');
    expect(matched('mixed-case-model')).toBe('Mixed-Case-Model');
    expect(matched('gemini-2.5-flash-lite')).toBe('gemini-2.5-flash-lite');
  });

  it('prices a dated or versioned snapshot by its base entry, the longest base winning', () => {
    expect(matched('gpt-4o-2024-08-06')).toBe('gpt-4o');
    expect(matched('gpt-4o-mini-2024-07-18')).toBe('gpt-4o-mini');
    expect(matched('claude-sonnet-4-20250514')).toBe('claude-sonnet-4');
    expect(matched('claude-sonnet-4@20250514')).toBe('claude-sonnet-4');
    expect(matched('claude-opus-4-1-20250805')).toBe('claude-opus-4-1');
    expect(matched('claude-opus-4-20250514')).toBe('claude-opus-4');
    expect(matched('claude-3-5-haiku-latest')).toBe('claude-3-5-haiku');
    expect(matched('mistral-large-2411')).toBe('mistral-large');
    expect(matched('mistral-large-latest')).toBe('mistral-large');
    expect(matched('gpt-4.1-2025-04-14')).toBe('gpt-4.1');
  });

  it('strips a host namespace and a Bedrock vendor or region prefix', () => {
    expect(matched('anthropic.claude-3-5-haiku-20241022-v1:0')).toBe('claude-3-5-haiku');
    expect(matched('us.anthropic.claude-sonnet-4-20250514-v1:0')).toBe('claude-sonnet-4');
    expect(matched('meta.llama3-3-70b-instruct-v1:0')).toBe('llama3-3-70b-instruct');
    expect(matched('models/gemini-2.5-flash')).toBe('gemini-2.5-flash');
    expect(matched('groq/llama-3.3-70b-versatile')).toBe('llama-3.3-70b-versatile');
  });

  it('leaves a different model that only shares a prefix unpriced', () => {
    expect(matched('o3-pro')).toBeNull();
    expect(matched('o3-mini')).toBeNull();
    expect(matched('gpt-4.1-nano')).toBeNull();
    expect(matched('gpt-4o-audio-preview')).toBeNull();
    expect(matched('gemini-2.5-flash-preview-05-20')).toBeNull();
    expect(matched('gpt-4')).toBeNull();
    expect(matched('gpt-4o-')).toBeNull();
    expect(matched('test-model')).toBeNull();
    expect(matched('')).toBeNull();
  });

  it('finds nothing in an empty table', () => {
    expect(findPriceEntry(toPriceTable([]), 'gpt-4o')).toBeNull();
  });

  it('prefers an exact entry for the full name over the stripped one', () => {
    const t = toPriceTable([entry('anthropic.claude-sonnet-4', 7), entry('claude-sonnet-4', 3)]);
    expect(findPriceEntry(t, 'anthropic.claude-sonnet-4')?.inputPricePerMtok).toBe(7);
    expect(findPriceEntry(t, 'us.anthropic.claude-sonnet-4')?.inputPricePerMtok).toBe(3);
  });
});

describe('isVersionOf', () => {
  it('accepts dates, numbers, latest and Bedrock versions after - or @', () => {
    for (const suffix of [
      '-2024-08-06',
      '-20250514',
      '@20250514',
      '-2411',
      '-latest',
      '-001',
      '-v1:0',
      '-20241022-v2:0',
    ]) {
      expect(isVersionOf(`base${suffix}`, 'base'), suffix).toBe(true);
    }
  });

  it('refuses words, a bare base and a missing separator', () => {
    for (const name of [
      'base',
      'base-mini',
      'base2024',
      'base-preview-06-17',
      'base--1',
      'base-v1-x',
      'basement',
    ]) {
      expect(isVersionOf(name, 'base'), name).toBe(false);
    }
  });
});

describe('candidateNames', () => {
  it('lower-cases and strips namespaces once', () => {
    expect(candidateNames('gpt-4o')).toEqual(['gpt-4o']);
    expect(candidateNames('meta-llama/Llama-3.3-70B-Instruct-Turbo')).toEqual([
      'meta-llama/llama-3.3-70b-instruct-turbo',
      'llama-3.3-70b-instruct-turbo',
    ]);
    expect(candidateNames('eu.meta.llama3-2-1b-instruct-v1:0')).toEqual([
      'eu.meta.llama3-2-1b-instruct-v1:0',
      'llama3-2-1b-instruct-v1:0',
    ]);
    expect(candidateNames('x/')).toEqual(['x/']);
  });
});
