import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { findUnknownFields } from './unknown-fields';

const schema = z.object({
  name: z.string(),
  routes: z.array(z.object({ provider_id: z.string(), weight: z.number().optional() })).optional(),
  tags: z.record(z.string(), z.string()).optional(),
  meta: z.unknown().optional(),
  models: z
    .array(z.string())
    .optional()
    .transform((models) => (models ? [...new Set(models)] : models)),
});

function unknownIn(body: unknown): string[] {
  return findUnknownFields(body, schema.parse(body));
}

describe('findUnknownFields', () => {
  it('names top-level and nested unknown keys by path', () => {
    const body = { name: 'a', colour: 'red', routes: [{ provider_id: 'p' }, { provider_id: 'q', extra: 1 }] };
    expect(unknownIn(body)).toEqual(['colour', 'routes.1.extra']);
  });

  it('accepts a body with only known keys, free-form records and unknown-typed values', () => {
    expect(unknownIn({ name: 'a', tags: { any: 'key' }, meta: { whatever: { deep: true } } })).toEqual([]);
  });

  it('skips arrays a transform reshaped', () => {
    expect(unknownIn({ name: 'a', models: ['x', 'x'] })).toEqual([]);
  });
});
