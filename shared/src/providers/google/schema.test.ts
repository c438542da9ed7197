import { describe, expect, it } from 'vitest';
import { toGeminiSchema } from './schema';

describe('JSON Schema → Gemini schema', () => {
  it('drops keywords Gemini rejects, recursively', () => {
    expect(
      toGeminiSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'x',
        type: 'object',
        additionalProperties: false,
        properties: {
          tags: { type: 'array', items: { type: 'string', $comment: 'c' }, uniqueItems: true, minItems: 1 },
          score: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5, maximum: 10 },
          meta: { type: 'object', patternProperties: { '^x': {} }, properties: { a: { type: 'boolean' } } },
        },
        required: ['tags', 'ghost'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        score: { type: 'number', maximum: 10 },
        meta: { type: 'object', properties: { a: { type: 'boolean' } } },
      },
      // `ghost` names no property: Gemini rejects that.
      required: ['tags'],
    });
  });

  it('inlines $defs references and cuts cycles', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          home: { $ref: '#/$defs/Address', description: 'Home address' },
          node: { $ref: '#/definitions/Node' },
        },
        $defs: {
          Address: { type: 'object', description: 'An address', properties: { city: { type: 'string' } } },
        },
        definitions: { Node: { type: 'object', properties: { next: { $ref: '#/definitions/Node' } } } },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        home: { type: 'object', description: 'Home address', properties: { city: { type: 'string' } } },
        node: { type: 'object', properties: { next: { type: 'object' } } },
      },
    });
  });

  it('rewrites nullable unions, oneOf, allOf, const and formats', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          a: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          b: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          c: { allOf: [{ type: 'object', properties: { x: { type: 'string' } } }], description: 'merged' },
          d: { const: 'fixed' },
          e: { type: 'string', format: 'email' },
          f: { type: 'string', format: 'date-time' },
          g: { type: 'integer', format: 'int64', enum: [1, 2] },
          h: { type: ['string', 'number'] },
          i: { type: 'string', enum: ['x', 'y', null] },
        },
      }).properties,
    ).toEqual({
      a: { type: 'string', nullable: true },
      b: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      c: { description: 'merged', type: 'object', properties: { x: { type: 'string' } } },
      d: { type: 'string', enum: ['fixed'] },
      e: { type: 'string' },
      f: { type: 'string', format: 'date-time' },
      g: { type: 'integer', format: 'int64' },
      h: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      i: { type: 'string', enum: ['x', 'y'], nullable: true },
    });
  });
});
