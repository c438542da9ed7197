import { describe, expect, it } from 'vitest';
import { describeJsonInputProblem, findJsonInputProblem, MAX_JSON_DEPTH } from './json-input';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

describe('findJsonInputProblem', () => {
  it('passes ordinary bodies, including astral characters and escapes', () => {
    const body = {
      model: 'm',
      messages: [{ role: 'user', content: 'hé 😀 \n \\u0000 as text' }],
      n: 1,
      x: null,
    };
    expect(findJsonInputProblem(body)).toBeNull();
    expect(findJsonInputProblem(nested(MAX_JSON_DEPTH))).toBeNull();
  });

  it('names the field holding a NUL character or a lone surrogate', () => {
    const nul = JSON.parse('{"messages":[{"role":"user","content":"a\\u0000b"}]}');
    expect(findJsonInputProblem(nul)).toEqual({
      path: 'messages.0.content',
      message: 'contains a NUL character (\\u0000)',
      kind: 'string',
    });
    const lone = JSON.parse('{"name":"x\\ud800y"}');
    expect(findJsonInputProblem(lone)?.path).toBe('name');
    expect(findJsonInputProblem(lone)?.message).toBe('contains a lone UTF-16 surrogate');
    expect(findJsonInputProblem(JSON.parse('"\\u0000"'))?.path).toBe('');
  });

  it('checks object keys too', () => {
    const problem = findJsonInputProblem(JSON.parse('{"meta":{"k\\u0000":1}}'));
    expect(problem?.path).toBe('meta');
    expect(problem?.message).toMatch(/key that contains a NUL/);
  });

  it('refuses nesting past the limit without overflowing its own stack', () => {
    const deep = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    const problem = findJsonInputProblem(deep);
    expect(problem?.kind).toBe('depth');
    expect(problem?.path.split('.')).toHaveLength(MAX_JSON_DEPTH);
    expect(findJsonInputProblem(nested(MAX_JSON_DEPTH + 1))?.kind).toBe('depth');
  });

  it('describes a problem in one line', () => {
    expect(describeJsonInputProblem({ path: 'a.b', message: 'is bad', kind: 'string' })).toBe('`a.b` is bad');
    expect(describeJsonInputProblem({ path: '', message: 'is bad', kind: 'string' })).toBe('the body is bad');
  });
});
