import { describe, expect, it } from 'vitest';
import { createBreaker, StoreUnavailableError } from './breaker';

function harness(probeAnswers: () => Promise<unknown>) {
  let clock = 1_000;
  const changes: boolean[] = [];
  let probes = 0;
  const held: Promise<unknown>[] = [];
  const breaker = createBreaker({
    store: 'Redis',
    probe: () => {
      probes += 1;
      return probeAnswers();
    },
    probeEveryMs: 500,
    now: () => clock,
    onChange: (open) => changes.push(open),
  });
  return {
    breaker,
    changes,
    probes: () => probes,
    advance: (ms: number) => {
      clock += ms;
    },
    keepAlive: (work: Promise<unknown>) => void held.push(work),
    settle: () => Promise.all(held.splice(0)),
  };
}

const down = () => Promise.reject(new Error('ECONNREFUSED'));

describe('createBreaker', () => {
  it('passes calls through while the store answers', async () => {
    const h = harness(down);
    expect(await h.breaker.guard(async () => 'ok')).toBe('ok');
    expect(h.breaker.isOpen).toBe(false);
    expect(h.changes).toEqual([]);
  });

  it('opens on a failed call and then skips the store without calling it', async () => {
    const h = harness(down);
    await expect(h.breaker.guard(down)).rejects.toThrow('ECONNREFUSED');
    expect(h.breaker.isOpen).toBe(true);
    let called = false;
    const skipped = h.breaker.guard(async () => {
      called = true;
    });
    await expect(skipped).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(called).toBe(false);
    expect(h.changes).toEqual([true]);
  });

  it('probes at most once per interval, in the background, and closes when a probe answers', async () => {
    let storeUp = false;
    const h = harness(() => (storeUp ? Promise.resolve('PONG') : down()));
    await expect(h.breaker.guard(down, h.keepAlive)).rejects.toThrow();
    // Within the interval that opened it: no probe.
    expect(h.breaker.allows(h.keepAlive)).toBe(false);
    expect(h.probes()).toBe(0);
    h.advance(500);
    expect(h.breaker.allows(h.keepAlive)).toBe(false);
    expect(h.breaker.allows(h.keepAlive)).toBe(false);
    await h.settle();
    expect(h.probes()).toBe(1);
    expect(h.breaker.isOpen).toBe(true);
    storeUp = true;
    h.advance(499);
    expect(h.breaker.allows(h.keepAlive)).toBe(false);
    await h.settle();
    expect(h.probes()).toBe(1);
    h.advance(1);
    // The caller that starts the probe is still refused: it never waits on the probe.
    expect(h.breaker.allows(h.keepAlive)).toBe(false);
    await h.settle();
    expect(h.probes()).toBe(2);
    expect(h.breaker.isOpen).toBe(false);
    expect(await h.breaker.guard(async () => 'back')).toBe('back');
    expect(h.changes).toEqual([true, false]);
  });

  it('reports a failure once, however many calls fail while it opens', async () => {
    const h = harness(down);
    await Promise.allSettled([h.breaker.guard(down), h.breaker.guard(down), h.breaker.guard(down)]);
    h.breaker.failed(new Error('late'));
    expect(h.changes).toEqual([true]);
  });
});
