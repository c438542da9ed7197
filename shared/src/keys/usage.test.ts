import { describe, expect, it } from 'vitest';
import { createKeyUseRecorder } from './usage';

describe('createKeyUseRecorder', () => {
  it('asks Redis once per key per minute from one isolate', async () => {
    const guards: string[] = [];
    const redis = {
      set: async (key: string) => {
        guards.push(key);
        return null; // another isolate already wrote: no Postgres write from here
      },
    };
    const record = createKeyUseRecorder({ db: {} as never, redis: redis as never });
    const t0 = new Date('2026-01-01T00:00:00Z');
    await record('k1', t0);
    // Recorded a moment ago: nothing to do, not even a promise to keep alive.
    expect(record('k1', new Date(t0.getTime() + 59_999))).toBeNull();
    await record('k2', t0);
    await record('k1', new Date(t0.getTime() + 60_000));
    expect(guards).toEqual(['sluice:apikey-used:k1', 'sluice:apikey-used:k2', 'sluice:apikey-used:k1']);
  });
});
