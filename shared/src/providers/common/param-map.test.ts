import { describe, expect, it } from 'vitest';
import { applyParamMap, type ParamRule } from './param-map';

interface Source {
  limit?: number;
  heat?: number;
  who?: string;
  tags?: string[];
}

const rules: ReadonlyArray<ParamRule<Source>> = [
  { from: 'limit', to: 'max', default: 10 },
  { from: 'heat', to: 'temperature', min: 0, max: 1 },
  { from: 'who', to: 'meta.user.id' },
  { from: 'tags', to: 'labels', transform: (tags) => (tags.length > 0 ? tags.join(',') : undefined) },
];

describe('applyParamMap', () => {
  it('renames, defaults, clamps, nests and transforms', () => {
    expect(applyParamMap({ heat: 1.8, who: 'u1', tags: ['a', 'b'] }, rules)).toEqual({
      max: 10,
      temperature: 1,
      meta: { user: { id: 'u1' } },
      labels: 'a,b',
    });
    expect(applyParamMap({ limit: 3, heat: -1 }, rules)).toEqual({ max: 3, temperature: 0 });
  });

  it('leaves out absent fields and transforms that return undefined', () => {
    expect(applyParamMap({ tags: [] }, rules)).toEqual({ max: 10 });
  });
});
